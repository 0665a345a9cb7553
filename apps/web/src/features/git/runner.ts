import { GIT_MESSAGES, type GitOperation, type GitOutcome, GitOutcomeSchema } from "@ensemble/protocol";
import { z } from "zod";
import { applyOutcome, disconnect, setBusy, setConnected, useGitStore } from "./store";

/** Sends one operation and resolves with the raw ack, or null when no answer came. */
export type GitSend = (operation: GitOperation) => Promise<unknown>;

/**
 * An operation's result: the outcome, or why it did not happen: a socket error code of the
 * server, or one of ours (`busy`, `offline`, `no_answer`, `invalid_answer`).
 */
export type GitResult = { ok: true; outcome: GitOutcome } | ({ ok: false } & GitFailure);

export interface GitFailure {
  code: string;
  message: string;
}

const GitAckSchema = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), data: GitOutcomeSchema }),
  z.object({ ok: z.literal(false), error: z.object({ code: z.string(), message: z.string() }) }),
]);

export const NO_ANSWER = "The server did not answer. Check your connection and try again.";

/** How long after the last document change the host asks for the status again. */
export const REFRESH_DELAY_MS = 1000;

/** What to show for a failure: spec §8 wraps a failed git command as 'Operation failed: …'. */
export function failureText(result: GitFailure): string {
  return result.code === "git_failed" ? GIT_MESSAGES.operationFailed(result.message) : result.message;
}

function parseAck(ack: unknown): GitResult {
  if (ack === null) return { ok: false, code: "no_answer", message: NO_ANSWER };
  const parsed = GitAckSchema.safeParse(ack);
  if (!parsed.success)
    return { ok: false, code: "invalid_answer", message: "Unexpected answer from the server" };
  return parsed.data.ok
    ? { ok: true, outcome: parsed.data.data }
    : { ok: false, code: parsed.data.error.code, message: parsed.data.error.message };
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
    if (useGitStore.getState().busy !== null) return { ok: false, code: "busy", message: GIT_MESSAGES.busy };
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
    const pending = this.send(operation).then(parseAck, () => parseAck(null));
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
      applyOutcome(result.outcome);
      if (operation.op === "connect") setConnected(operation.github);
      return;
    }
    // GitHub refused the token (spec §8): it is removed, the host logs in again.
    if (result.code === "github_auth") disconnect();
  }
}
