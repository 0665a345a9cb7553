import { runCancelled, runQueueFull } from "./errors";

interface Waiter {
  start: (slot: number) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

/**
 * At most `concurrency` tasks at once, each given a slot number of its own (0..concurrency-1),
 * and a bounded FIFO of at most `maxQueued` waiting tasks behind them; a task that would wait
 * beyond that is refused at once (runQueueFull). A waiting task whose signal aborts leaves the line.
 */
export class RunQueue {
  private readonly freeSlots: number[];
  private readonly waiting: Waiter[] = [];

  constructor(
    readonly concurrency: number,
    readonly maxQueued: number,
  ) {
    this.freeSlots = Array.from({ length: concurrency }, (_, i) => i);
  }

  get running(): number {
    return this.concurrency - this.freeSlots.length;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Runs `task` in a free slot, waiting in line when none is free. */
  async run<T>(task: (slot: number) => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) throw runCancelled();
    const slot = await this.acquire(signal);
    try {
      return await task(slot);
    } finally {
      this.release(slot);
    }
  }

  private acquire(signal: AbortSignal | undefined): Promise<number> {
    const free = this.freeSlots.shift();
    if (free !== undefined) return Promise.resolve(free);
    if (this.waiting.length >= this.maxQueued) return Promise.reject(runQueueFull());
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        signal,
        start: (slot) => {
          signal?.removeEventListener("abort", waiter.onAbort);
          resolve(slot);
        },
        onAbort: () => {
          const index = this.waiting.indexOf(waiter);
          if (index >= 0) this.waiting.splice(index, 1);
          reject(runCancelled());
        },
      };
      signal?.addEventListener("abort", waiter.onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  private release(slot: number) {
    const next = this.waiting.shift();
    if (next) next.start(slot);
    else this.freeSlots.push(slot);
  }
}
