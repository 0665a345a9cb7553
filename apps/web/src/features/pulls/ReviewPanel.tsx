import { useEffect, useId, useMemo, useRef } from "react";
import { CloseButton } from "../../ui/CloseButton";
import { Dialog } from "../../ui/Dialog";
import type { PullsChannel } from "./channel";
import { useNow } from "./hooks";
import { PrDetail } from "./PrDetail";
import { PrRowContent } from "./PrRowContent";
import { prsInTab, type ReviewTab } from "./prList";
import { closePanel, selectPr, showTab, usePullsStore } from "./store";

/** The spec's texts of the review panel (§2). */
export const PANEL_TEXT = {
  titleHost: "Review pull requests",
  titleViewer: "View pull requests",
  emptyPending: "No pending pull requests to review",
  emptyReviewed: "No reviewed pull requests yet",
  noSelection: "Select a pull request to review",
} as const;

const TABS: { id: ReviewTab; label: string; empty: string }[] = [
  { id: "pending", label: "Pending Reviews", empty: PANEL_TEXT.emptyPending },
  { id: "reviewed", label: "Reviewed PRs", empty: PANEL_TEXT.emptyReviewed },
];

const TICK_MS = 10_000;

interface ReviewPanelProps {
  pulls: PullsChannel | null;
  /** The host reviews; anyone else reads. */
  isHost: boolean;
  isConnected: boolean;
}

/**
 * The PR review panel (spec §2): tabs Pending Reviews and Reviewed PRs with their counts,
 * the tab's PRs on the left, the chosen one on the right with its diff and, for the host
 * while it is pending, the review actions.
 */
export function ReviewPanel({ pulls, isHost, isConnected }: ReviewPanelProps) {
  const prs = usePullsStore((s) => s.prs);
  const isOpen = usePullsStore((s) => s.isPanelOpen);
  const tab = usePullsStore((s) => s.tab);
  const selectedId = usePullsStore((s) => s.selectedId);
  const now = useNow(TICK_MS);
  const baseId = useId();
  const lists = useMemo(
    () => ({ pending: prsInTab(prs, "pending"), reviewed: prsInTab(prs, "reviewed") }),
    [prs],
  );
  const selected = prs.find((pr) => pr.id === selectedId) ?? null;
  const current = TABS.find((t) => t.id === tab) ?? TABS[0];
  const shown = lists[tab];
  const listRef = useRef<HTMLDivElement>(null);
  const lastSelectedRef = useRef<string | null>(null);

  useEffect(() => {
    const closed = lastSelectedRef.current;
    lastSelectedRef.current = selectedId;
    if (selectedId !== null || closed === null) return;
    // The detail closed (Escape in its diff) while it held focus, which fell to the page or the
    // dialog itself: its PR's row takes it, so the keyboard stays where the reader was.
    const active = document.activeElement;
    const list = listRef.current;
    if (!list || (active && active !== document.body && !active.classList.contains("dialog"))) return;
    const row = [...list.querySelectorAll<HTMLElement>("[data-pr-id]")].find(
      (r) => r.dataset.prId === closed,
    );
    row?.querySelector("button")?.focus();
  }, [selectedId]);

  return (
    <Dialog
      isOpen={isOpen}
      title={isHost ? PANEL_TEXT.titleHost : PANEL_TEXT.titleViewer}
      onClose={closePanel}
      className="pr-panel"
    >
      <CloseButton label="Close" className="icon-button pr-panel-close" onClick={closePanel} />
      <div className="pr-tabs" role="tablist" aria-label="Pull requests by state">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`${baseId}-${t.id}`}
            aria-selected={t.id === tab}
            aria-controls={`${baseId}-list`}
            className="pr-tab"
            onClick={() => showTab(t.id)}
          >
            {t.label} <span className="pr-tab-count">({lists[t.id].length})</span>
          </button>
        ))}
      </div>
      <div className="pr-panel-body">
        <div
          ref={listRef}
          id={`${baseId}-list`}
          className="pr-panel-list"
          role="tabpanel"
          aria-labelledby={`${baseId}-${tab}`}
        >
          {shown.length === 0 ? (
            <p className="pr-empty">{current?.empty}</p>
          ) : (
            <ul>
              {shown.map((pr) => (
                <li key={pr.id} data-pr-id={pr.id} data-status={pr.status}>
                  <button
                    type="button"
                    className="pr-panel-row"
                    aria-current={pr.id === selectedId}
                    onClick={() => selectPr(pr.id)}
                  >
                    <PrRowContent pr={pr} now={now} titleClass="pr-panel-row-title" />
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="pr-panel-detail">
          {selected ? (
            <PrDetail
              key={selected.id}
              pr={selected}
              pulls={pulls}
              canReview={isHost}
              isConnected={isConnected}
            />
          ) : (
            <p className="pr-empty pr-no-selection">{PANEL_TEXT.noSelection}</p>
          )}
        </div>
      </div>
    </Dialog>
  );
}
