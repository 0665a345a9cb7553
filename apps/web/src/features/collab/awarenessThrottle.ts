import * as awarenessProtocol from "y-protocols/awareness";

/** Cursor awareness goes out at most this often (the notes' 50–100 ms). */
export const AWARENESS_INTERVAL_MS = 80;

/**
 * Rate-limits our awareness messages. y-monaco writes the selection on every cursor move, so
 * one keystroke can change our state several times; only the latest state matters, so a
 * burst collapses into one message sent at most every `intervalMs`, always carrying the
 * current state. Clearing our state (leaving) goes out at once.
 */
export function throttleAwareness(
  awareness: awarenessProtocol.Awareness,
  send: (message: Uint8Array) => void,
  intervalMs = AWARENESS_INTERVAL_MS,
) {
  let lastSentAt = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const flush = () => {
    timer = undefined;
    lastSentAt = performance.now();
    // Only our own entry: a remote entry in a local change is a timeout removal, which
    // the server would drop anyway.
    send(awarenessProtocol.encodeAwarenessUpdate(awareness, [awareness.clientID]));
  };

  return {
    /** Asks for our current state to be sent. */
    request(): void {
      if (awareness.getLocalState() === null) {
        clearTimeout(timer);
        flush();
        return;
      }
      if (timer !== undefined) return;
      const wait = lastSentAt + intervalMs - performance.now();
      if (wait <= 0) flush();
      else timer = setTimeout(flush, wait);
    },
    cancel(): void {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
