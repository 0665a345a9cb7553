import type { Writable } from "node:stream";
import type { StreamName } from "./capture";

/** How a stage ended, as Piston's `exit` message says it. */
export interface StageExit {
  code: number | null;
  signal: string | null;
}

/** What the sandbox hands a live run once its program started: its stdin and a way to signal it. */
export interface LiveTarget {
  stdin: Writable;
  /** Sends `signal` to the program and everything it started (SIGKILL tears the sandbox down). */
  signal(signal: NodeJS.Signals): void;
}

/**
 * The live side of one run (the terminal's runs and Piston's `/api/v2/connect`): output as
 * the program writes it, stdin kept open while it runs, and signals. The caller holds it from
 * the start; a run still waiting in the queue keeps what was written or asked for and gets it
 * as soon as the sandbox attaches, in order.
 */
export class LiveIo {
  private target: LiveTarget | undefined;
  private readonly waiting: string[] = [];
  private isStdinClosed = false;
  private isFinished = false;
  private pendingSignal: NodeJS.Signals | undefined;
  private killTimer: NodeJS.Timeout | undefined;

  /**
   * `onOutput` gets each piece of decoded text as it is captured (within the output cap);
   * `onStage` hears each stage begin, and the compile end with its exit (Piston's `stage` and
   * `exit` messages), in order with the output.
   */
  constructor(
    readonly onOutput: (stream: StreamName, text: string) => void,
    readonly onStage?: (stage: "compile" | "run", exit?: StageExit) => void,
  ) {}

  /** Whether stdin is still open to writes. */
  get stdinOpen(): boolean {
    return !this.isStdinClosed && !this.isFinished;
  }

  /** Writes text to the program's stdin; ignored once stdin is closed or the run ended. */
  write(text: string): void {
    if (!this.stdinOpen) return;
    if (this.target) this.target.stdin.write(text);
    else this.waiting.push(text);
  }

  /** Closes stdin: the program reads end of file (Ctrl+D). */
  closeStdin(): void {
    if (!this.stdinOpen) return;
    this.isStdinClosed = true;
    this.target?.stdin.end();
  }

  /** Sends a signal to the program; before it starts, the signal waits for it. */
  signal(signal: NodeJS.Signals): void {
    if (this.isFinished) return;
    if (this.target) this.target.signal(signal);
    else this.pendingSignal = signal;
  }

  /** Stop: SIGINT, as Ctrl+C in a terminal, then the whole tree killed `graceMs` later if it still runs. */
  interrupt(graceMs: number): void {
    if (this.isFinished || this.killTimer) return;
    this.signal("SIGINT");
    this.killTimer = setTimeout(() => this.signal("SIGKILL"), graceMs);
    this.killTimer.unref();
  }

  /** Called by the sandbox once the program's stdin is open: what waited is delivered now. */
  attach(target: LiveTarget): void {
    if (this.isFinished) return;
    this.target = target;
    for (const text of this.waiting.splice(0)) target.stdin.write(text);
    if (this.isStdinClosed) target.stdin.end();
    if (this.pendingSignal) target.signal(this.pendingSignal);
  }

  /** Called once the run ended: later writes and signals do nothing. */
  finish(): void {
    this.isFinished = true;
    this.target = undefined;
    clearTimeout(this.killTimer);
  }
}
