import { EXECUTION_LIMITS, EXECUTION_MESSAGES, type RunStateUpdate } from "@ensemble/protocol";
import { DomainError } from "../../errors";
import type { LiveIo } from "../execution/index";
import type { Runner } from "./commands";

/** One session's run in flight: who started it, its live stdin and signals, who may type. */
export interface LiveRun {
  starterId: string;
  starterName: string;
  io: LiveIo;
  othersMayType: boolean;
  /** UTF-8 bytes typed into it so far (EXECUTION_LIMITS.stdinRunMaxBytes). */
  inputBytes: number;
  /** Who pressed Stop first, for the result line. */
  stoppedBy?: string;
}

/**
 * The runs in flight on this process, one per session: the terminal's single-flight seam.
 * A cluster (issue 14) keeps a session on one node, so this map is that node's share of
 * "who runs what"; every rule about a run in flight (who may type, how much, Stop) is here.
 */
export class LiveRuns {
  private readonly runs = new Map<string, LiveRun>();

  /** Claims the session for a run; false when one is already in flight. */
  claim(sessionId: string, run: LiveRun): boolean {
    if (this.runs.has(sessionId)) return false;
    this.runs.set(sessionId, run);
    return true;
  }

  release(sessionId: string): void {
    this.runs.delete(sessionId);
  }

  /** The run state every participant is told. */
  state(sessionId: string): RunStateUpdate {
    const run = this.runs.get(sessionId);
    if (!run) return { sessionId, isRunning: false, by: null };
    return {
      sessionId,
      isRunning: true,
      by: run.starterName,
      byId: run.starterId,
      inputOpen: run.io.stdinOpen,
      othersMayType: run.othersMayType,
    };
  }

  /** The run `who` may type into now (starter, or anyone when allowed), or why not. */
  typist(sessionId: string, who: Runner): LiveRun {
    const run = this.running(sessionId);
    if (who.id !== run.starterId && !run.othersMayType) {
      throw new DomainError("forbidden", EXECUTION_MESSAGES.inputNotAllowed);
    }
    if (!run.io.stdinOpen) throw new DomainError("conflict", EXECUTION_MESSAGES.inputClosed);
    return run;
  }

  /** Counts a line against the run's input budget; refused whole when it would go over. */
  takeInput(run: LiveRun, text: string): void {
    const bytes = Buffer.byteLength(text);
    if (run.inputBytes + bytes > EXECUTION_LIMITS.stdinRunMaxBytes) {
      throw new DomainError("limit", EXECUTION_MESSAGES.inputTooMuch);
    }
    run.inputBytes += bytes;
  }

  /** Stop: SIGINT now, the tree killed after the grace; the first to stop is named in the result. */
  stop(sessionId: string, who: Runner): void {
    const run = this.running(sessionId);
    run.stoppedBy ??= who.name;
    run.io.interrupt(EXECUTION_LIMITS.stopGraceMs);
  }

  /** The starter lets everyone type, or only themselves again. */
  setAccess(sessionId: string, who: Runner, othersMayType: boolean): void {
    const run = this.running(sessionId);
    if (who.id !== run.starterId) throw new DomainError("forbidden", EXECUTION_MESSAGES.onlyStarter);
    run.othersMayType = othersMayType;
  }

  private running(sessionId: string): LiveRun {
    const run = this.runs.get(sessionId);
    if (!run) throw new DomainError("conflict", EXECUTION_MESSAGES.notRunning);
    return run;
  }
}
