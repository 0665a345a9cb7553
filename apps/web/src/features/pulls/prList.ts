import type { PrStatus, PrSync, PullRequest } from "@ensemble/protocol";

/**
 * The session's PRs after one `prSync` event (spec §4): `pr-sync` replaces them all,
 * `pr-cleared` empties them, an added (or review-requested) PR is ignored when its id is
 * known, updated / approved / rejected / changes-requested replace the PR with that id or
 * add it, deleted removes it. The list is never mutated; an event changing nothing returns it.
 */
export function applyPrSync(prs: readonly PullRequest[], event: PrSync): readonly PullRequest[] {
  switch (event.type) {
    case "pr-sync":
      return event.prs;
    case "pr-cleared":
      return [];
    case "pr-added":
    case "review-requested":
      return prs.some((p) => p.id === event.pr.id) ? prs : [...prs, event.pr];
    case "pr-deleted":
      return prs.some((p) => p.id === event.pr.id) ? prs.filter((p) => p.id !== event.pr.id) : prs;
    default:
      return replaceOrAdd(prs, event.pr);
  }
}

function replaceOrAdd(prs: readonly PullRequest[], pr: PullRequest): readonly PullRequest[] {
  const index = prs.findIndex((p) => p.id === pr.id);
  if (index === -1) return [...prs, pr];
  return prs.map((p, i) => (i === index ? pr : p));
}

/** The PRs waiting for the host's review: the number on the host's badge. */
export function pendingCount(prs: readonly PullRequest[]): number {
  return prs.reduce((count, pr) => (pr.status === "pending" ? count + 1 : count), 0);
}

/** Whether the host may still act on a PR (spec §4: actions only while pending). */
export function isReviewable(status: PrStatus): boolean {
  return status === "pending";
}

/** The review panel's tab a PR belongs in. */
export type ReviewTab = "pending" | "reviewed";

export function tabOf(pr: PullRequest): ReviewTab {
  return isReviewable(pr.status) ? "pending" : "reviewed";
}

/** The PRs of one tab, newest first (an unreadable date sorts last). */
export function prsInTab(prs: readonly PullRequest[], tab: ReviewTab): PullRequest[] {
  return newestFirst(prs.filter((pr) => tabOf(pr) === tab));
}

/** A copy of the PRs, newest first by creation. */
export function newestFirst(prs: readonly PullRequest[]): PullRequest[] {
  const time = (pr: PullRequest) => {
    const t = Date.parse(pr.createdAt);
    return Number.isNaN(t) ? Number.NEGATIVE_INFINITY : t;
  };
  return [...prs].sort((a, b) => time(b) - time(a));
}

/**
 * Whether this event brings the host a PR to be told about: a new PR (added for an id not
 * known before, or a review request) that someone else wrote and that is still pending.
 */
export function isArrivalForHost(
  before: readonly PullRequest[],
  event: PrSync,
  selfId: string | null,
): PullRequest | null {
  if (event.type !== "pr-added" && event.type !== "review-requested") return null;
  const { pr } = event;
  if (pr.authorId === selfId || !isReviewable(pr.status)) return null;
  if (event.type === "pr-added" && before.some((p) => p.id === pr.id)) return null;
  return pr;
}
