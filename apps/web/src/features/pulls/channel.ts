import {
  type CreatePr,
  type CreatePrAck,
  CreatePrAckSchema,
  type GithubTarget,
  type PrDiff,
  PrDiffSchema,
  type Presence,
  PrReviewedSchema,
  PrSyncSchema,
  type ReviewAck,
  ReviewAckSchema,
  type ReviewAction,
} from "@ensemble/protocol";
import type { z } from "zod";
import type { EditorSocket } from "../../lib/socket";
import { OFFLINE, type PrResult, parseAck } from "./acks";
import { notifyAuthor, notifyHost } from "./feedback";
import { isArrivalForHost } from "./prList";
import { openPanel, receiveSync, resetPulls, usePullsStore } from "./store";

/**
 * Creating commits the workspace on the server; approving merges and may publish to GitHub,
 * which waits seconds for GitHub to register branches (spec §7).
 */
const PR_ACK_TIMEOUT_MS = 120_000;
const DIFF_ACK_TIMEOUT_MS = 30_000;

/**
 * Pull requests over the session's socket. Everyone keeps the session's PRs from `prSync`
 * and asks for all of them again on every join (a reconnect may have missed events); the
 * host is told when a PR arrives, an author when theirs was reviewed.
 */
export class PullsChannel {
  private selfId: string | null = null;
  private isHost = false;
  /** PRs the host was already told about (an arrival may come as added and as review-requested). */
  private readonly announced = new Set<string>();

  constructor(
    private readonly socket: EditorSocket,
    readonly sessionId: string,
  ) {
    resetPulls();
    socket.on("prSync", (payload) => {
      const parsed = PrSyncSchema.safeParse(payload);
      if (!parsed.success || parsed.data.sessionId !== this.sessionId) return;
      const before = usePullsStore.getState().prs;
      receiveSync(parsed.data);
      const arrived = this.isHost ? isArrivalForHost(before, parsed.data, this.selfId) : null;
      if (arrived && !this.announced.has(arrived.id)) {
        this.announced.add(arrived.id);
        notifyHost(arrived, () => openPanel(arrived));
      }
    });
    socket.on("prReviewed", (payload) => {
      const parsed = PrReviewedSchema.safeParse(payload);
      if (parsed.success && parsed.data.sessionId === this.sessionId) notifyAuthor(parsed.data);
    });
  }

  /** Called on each successful join with who we are: the full list is asked for again. */
  joined(self: Presence): void {
    this.selfId = self.id;
    this.isHost = self.isHost;
    this.socket.emit("requestPRSync", this.sessionId);
  }

  /** Proposes the workspace as it is now; everyone receives the PR as `pr-added`. */
  create(input: Omit<CreatePr, "sessionId">): Promise<PrResult<CreatePrAck>> {
    return this.ask(CreatePrAckSchema, PR_ACK_TIMEOUT_MS, (socket, done) =>
      socket.emit("createPR", { sessionId: this.sessionId, ...input }, done),
    );
  }

  /**
   * The host's review; the server refuses anyone else and any PR that is not pending. With
   * `github` (the host's connection) an approval also opens the PR on GitHub.
   */
  review(
    prId: string,
    action: ReviewAction,
    comment?: string,
    github?: GithubTarget | null,
  ): Promise<PrResult<ReviewAck>> {
    const payload = {
      sessionId: this.sessionId,
      prId,
      action,
      ...(comment ? { comment } : {}),
      ...(github ? { github } : {}),
    };
    return this.ask(ReviewAckSchema, PR_ACK_TIMEOUT_MS, (socket, done) =>
      socket.emit("reviewPR", payload, done),
    );
  }

  /** A PR's changed files, each with its text on the target's side and on the PR's. */
  diff(prId: string): Promise<PrResult<PrDiff>> {
    return this.ask(PrDiffSchema, DIFF_ACK_TIMEOUT_MS, (socket, done) =>
      socket.emit("getPRDiff", { sessionId: this.sessionId, prId }, done),
    );
  }

  /**
   * Sends one acknowledged request and parses its answer. Refused at once while offline:
   * socket.io would hold it and send it before our next join.
   */
  private ask<T>(
    schema: z.ZodType<T>,
    timeoutMs: number,
    send: (socket: TimedSocket, done: (err: Error | null, ack: unknown) => void) => void,
  ): Promise<PrResult<T>> {
    if (!this.socket.connected) return Promise.resolve({ ok: false, code: "offline", message: OFFLINE });
    return new Promise((resolve) => {
      send(this.socket.timeout(timeoutMs), (err, ack) => resolve(parseAck(schema, err ? null : ack)));
    });
  }
}

type TimedSocket = ReturnType<EditorSocket["timeout"]>;
