/** A per-key debounce: `call(key)` runs `run(key)` once `delayMs` passed with no other call for that key. */
export function debounceByKey<K>(delayMs: number, run: (key: K) => void) {
  const timers = new Map<K, ReturnType<typeof setTimeout>>();
  return {
    call(key: K): void {
      clearTimeout(timers.get(key));
      timers.set(
        key,
        setTimeout(() => {
          timers.delete(key);
          run(key);
        }, delayMs),
      );
    },
    cancel(key: K): void {
      clearTimeout(timers.get(key));
      timers.delete(key);
    },
    cancelAll(): void {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}
