import type { PrSync, PullRequest, ReviewAction } from "@ensemble/protocol";
import { create } from "zustand";
import { applyPrSync, type ReviewTab, tabOf } from "./prList";

/** A review on its way: which PR, what action, and whether it also opens the PR on GitHub. */
export interface Reviewing {
  prId: string;
  action: ReviewAction;
  isPublishing: boolean;
}

interface PullsState {
  /** Every PR of the session as the last sync events left it. */
  prs: readonly PullRequest[];
  /** A full list (`pr-sync`) has arrived since the session opened. */
  isLoaded: boolean;
  /** The review panel: open or not, its tab and the PR shown on the right. */
  isPanelOpen: boolean;
  tab: ReviewTab;
  selectedId: string | null;
  /** The review we sent and wait for (one at a time), or null. */
  reviewing: Reviewing | null;
  /** A creation we sent and wait for. */
  isCreating: boolean;
}

const initial: PullsState = {
  prs: [],
  isLoaded: false,
  isPanelOpen: false,
  tab: "pending",
  selectedId: null,
  reviewing: null,
  isCreating: false,
};

/** The session's pull requests and the review panel; PRs are written by the pulls channel only. */
export const usePullsStore = create<PullsState>()(() => initial);

/** A fresh state for a new session. */
export function resetPulls(): void {
  usePullsStore.setState(initial);
}

export function receiveSync(event: PrSync): void {
  usePullsStore.setState((s) => ({
    prs: applyPrSync(s.prs, event),
    isLoaded: s.isLoaded || event.type === "pr-sync",
  }));
}

/** Puts a PR an ack returned in the list, as `pr-updated` would (the broadcast may come later). */
export function receivePr(pr: PullRequest): void {
  receiveSync({ type: "pr-updated", sessionId: pr.sessionId, pr });
}

/** An author's account was deleted: their PRs show `name` ("Deleted user"), as the server's do. */
export function renameAuthor(authorId: string, name: string): void {
  usePullsStore.setState((s) => ({
    prs: s.prs.map((pr) => (pr.authorId === authorId ? { ...pr, author: name } : pr)),
  }));
}

/** Opens the review panel, on `pr` when given (and on its tab), else as it was left. */
export function openPanel(pr?: PullRequest): void {
  if (!pr) {
    usePullsStore.setState({ isPanelOpen: true });
    return;
  }
  usePullsStore.setState({ isPanelOpen: true, selectedId: pr.id, tab: tabOf(pr) });
}

/** Opens the review panel on its pending tab (the host's badge). */
export function openPendingReviews(): void {
  usePullsStore.setState((s) => ({
    isPanelOpen: true,
    tab: "pending",
    selectedId: s.tab === "pending" ? s.selectedId : null,
  }));
}

export function closePanel(): void {
  usePullsStore.setState({ isPanelOpen: false });
}

/** Switches the panel's tab; the detail waits for a PR of that tab to be picked. */
export function showTab(tab: ReviewTab): void {
  usePullsStore.setState((s) => (s.tab === tab ? s : { tab, selectedId: null }));
}

export function selectPr(selectedId: string | null): void {
  usePullsStore.setState({ selectedId });
}

export function setReviewing(reviewing: PullsState["reviewing"]): void {
  usePullsStore.setState({ reviewing });
}

export function setCreating(isCreating: boolean): void {
  usePullsStore.setState({ isCreating });
}
