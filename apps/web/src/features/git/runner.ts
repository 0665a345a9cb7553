import { type Ack, GIT_MESSAGES, type GitOperation, type GitOutcome } from "@ensemble/protocol";
import { applyOutcome, disconnect, setBusy, setConnected, useGitStore } from "./store";

/**
 * An operation's result: the outcome, or why it did not happen: a socket error code of the
 * server, or one of ours (`busy`, or the request's `offline`, `timeout`, `invalid_answer`).
 */
export type GitResult = Ack<GitOutcome>;

/** Sends one operation and resolves with its parsed result. */
export type GitSend = (operation: GitOperation) => Promise<GitResult>;

export interface GitFailure {
  code: string;
  message: string;
}

/** How long after the last document change the host asks for the status again. */
export const REFRESH_DELAY_MS = 1000;

/** What to show for a failure: spec §8 wraps a failed git command as 'Operation failed: …'. */
export function failureText(result: GitFailure): string {
  return result.code === "git_failed" ? GIT_MESSAGES.operationFailed(result.message) : result.message;
}

/**
 * The git commands of one session, one on the wire at a time. An operation the user starts
 * is refused while another runs (its name is `busy` in the store meanwhile); background
 * status refreshes never make the user wait long: they are skipped while anything runs and
 * done once it ends.
 */
export class GitRunner {
  private inFlight: Promise<GitResult> | null = null;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private isRefreshOwed = false;

  constructor(
    private readonly send: GitSend,
    private readonly refreshDelayMs = REFRESH_DELAY_MS,
  ) {}

  /** Runs an operation the user asked for; refused with GIT_MESSAGES.busy while another runs. */
  async run(operation: GitOperation): Promise<GitResult> {
    if (useGitStore.getState().busy !== null)
      return { ok: false, error: { code: "busy", message: GIT_MESSAGES.busy } };
    setBusy(operation.op);
    try {
      // A background refresh may be on the wire: ours follows it, never overlaps it.
      await this.inFlight;
      return await this.exchange(operation);
    } finally {
      setBusy(null);
      if (this.isRefreshOwed) this.refreshSoon();
    }
  }

  /** Asks for the status again once changes have paused for the refresh delay. */
  refreshSoon(): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => void this.refreshNow(), this.refreshDelayMs);
  }

  /** Asks for the status now, or as soon as the operation running ends. */
  async refreshNow(): Promise<void> {
    clearTimeout(this.refreshTimer);
    if (useGitStore.getState().busy !== null || this.inFlight) {
      this.isRefreshOwed = true;
      return;
    }
    this.isRefreshOwed = false;
    await this.exchange({ op: "status" });
    if (this.isRefreshOwed) this.refreshSoon();
  }

  /** Stops the pending refresh (the session closed or we are no longer host). */
  cancelRefresh(): void {
    clearTimeout(this.refreshTimer);
    this.isRefreshOwed = false;
  }

  private async exchange(operation: GitOperation): Promise<GitResult> {
    const pending = this.send(operation);
    this.inFlight = pending;
    try {
      const result = await pending;
      this.settle(operation, result);
      return result;
    } finally {
      if (this.inFlight === pending) this.inFlight = null;
    }
  }

  private settle(operation: GitOperation, result: GitResult): void {
    if (result.ok) {
      applyOutcome(result.data);
      if (operation.op === "connect") setConnected(operation.github);
      return;
    }
    // GitHub refused the token (spec §8): it is removed, the host logs in again.
    if (result.error.code === "github_auth") disconnect();
  }
}
