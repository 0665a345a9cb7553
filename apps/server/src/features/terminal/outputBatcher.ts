import type { TerminalEntry } from "@ensemble/protocol";
import { terminalText } from "./entries";

type OutputEntry = TerminalEntry & { type: "output" | "error" };

/**
 * A live run's output on its way to everyone: pieces are gathered and sent as entries at
 * most once per `intervalMs` (the first piece after a quiet spell at once, on the next turn of
 * the event loop), stderr as `error` entries, in the order written. A batch is sent only once
 * the one before it was (`send` stores, then broadcasts), so a slow database makes batches
 * bigger, never out of order, and the output never falls further behind than one write.
 */
export class OutputBatcher {
  private pending: OutputEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private sending: Promise<void> = Promise.resolve();
  private isSending = false;
  private lastSentAt = Number.NEGATIVE_INFINITY;
  /** Whether the run printed anything at all. */
  printed = false;

  constructor(
    private readonly send: (entries: TerminalEntry[]) => Promise<void>,
    private readonly intervalMs: number,
  ) {}

  /** Takes a piece of the program's output. */
  push(stream: "stdout" | "stderr", text: string): void {
    if (!text) return;
    this.printed = true;
    const type = stream === "stderr" ? "error" : "output";
    const last = this.pending.at(-1);
    if (last?.type === type) last.content += terminalText(text);
    else this.pending.push({ type, content: terminalText(text) });
    this.schedule();
  }

  /** Resolves once everything pushed so far was sent. */
  async drain(): Promise<void> {
    for (;;) {
      clearTimeout(this.timer);
      this.timer = undefined;
      await this.sending;
      if (this.pending.length === 0) return;
      await this.flush();
    }
  }

  private schedule() {
    if (this.timer || this.isSending) return;
    const wait = Math.max(0, this.lastSentAt + this.intervalMs - performance.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, wait);
  }

  private flush(): Promise<void> {
    const entries = this.pending;
    this.pending = [];
    if (entries.length === 0) return this.sending;
    this.isSending = true;
    this.lastSentAt = performance.now();
    this.sending = this.send(entries)
      .catch(() => {
        // The run goes on; what could not be stored is lost from the history, not the run.
      })
      .finally(() => {
        this.isSending = false;
        if (this.pending.length > 0) this.schedule();
      });
    return this.sending;
  }
}
