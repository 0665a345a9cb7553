import {
  type CreatePr,
  DELETED_USER_NAME,
  type GithubTarget,
  type Presence,
  type ReviewAction,
} from "@ensemble/protocol";
import { type ChannelScope, defineChannel } from "../../lib/sessionChannels";
import type { SessionLink } from "../../lib/sessionLink";
import { notifyAuthor, notifyHost } from "./feedback";
import { isArrivalForHost } from "./prList";
import { openPanel, receiveSync, renameAuthor, resetPulls, usePullsStore } from "./store";

/**
 * Pull requests over the session's socket. Everyone keeps the session's PRs from `prSync`
 * and asks for all of them again on every join (a reconnect may have missed events); the
 * host is told when a PR arrives, an author when theirs was reviewed. Requests answer the
 * link's result: the data, or the server's or the link's refusal.
 */
export class PullsChannel {
  private selfId: string | null = null;
  private isHost = false;
  /** PRs the host was already told about (an arrival may come as added and as review-requested). */
  private readonly announced = new Set<string>();
  private readonly link: SessionLink;
  readonly sessionId: string;

  constructor({ link, lifecycle }: ChannelScope) {
    this.link = link;
    this.sessionId = link.sessionId;
    resetPulls();
    link.listen("prSync", (sync) => {
      const before = usePullsStore.getState().prs;
      receiveSync(sync);
      const arrived = this.isHost ? isArrivalForHost(before, sync, this.selfId) : null;
      if (arrived && !this.announced.has(arrived.id)) {
        this.announced.add(arrived.id);
        notifyHost(arrived, () => openPanel(arrived));
      }
    });
    link.listen("prReviewed", notifyAuthor);
    link.listen("accountDeleted", ({ userId }) => renameAuthor(userId, DELETED_USER_NAME));
    lifecycle.on("joined", ({ self }) => this.follow(self));
    lifecycle.on("selfChanged", (self) => this.follow(self));
  }

  /** Proposes the workspace as it is now; everyone receives the PR as `pr-added`. */
  create(input: Omit<CreatePr, "sessionId">) {
    return this.link.request("createPR", { sessionId: this.sessionId, ...input });
  }

  /**
   * The host's review; the server refuses anyone else and any PR that is not pending. With
   * `github` (the host's connection) an approval also opens the PR on GitHub.
   */
  review(prId: string, action: ReviewAction, comment?: string, github?: GithubTarget | null) {
    return this.link.request("reviewPR", {
      sessionId: this.sessionId,
      prId,
      action,
      ...(comment ? { comment } : {}),
      ...(github ? { github } : {}),
    });
  }

  /** A PR's changed files, each with its text on the target's side and on the PR's. */
  diff(prId: string) {
    return this.link.request("getPRDiff", { sessionId: this.sessionId, prId });
  }

  /** On each join and role change: who we are now, and the full list again (a reconnect may have missed events). */
  private follow(self: Presence): void {
    this.selfId = self.id;
    this.isHost = self.isHost;
    this.link.send("requestPRSync", this.sessionId);
  }
}

/** Pull requests: the sidebar list, the review panel, the host's badge. */
export const pullsChannel = defineChannel("pulls", (scope) => new PullsChannel(scope));
