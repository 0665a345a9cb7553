import { useMemo } from "react";
import { Spinner } from "../../ui/Spinner";
import type { PullsChannel } from "./channel";
import { useNow } from "./hooks";
import { PrRowContent } from "./PrRowContent";
import { newestFirst } from "./prList";
import { openPanel, usePullsStore } from "./store";
import { usePullActions } from "./usePullActions";

/** How often the relative times are re-read (spec §9 refreshes the badge every 10 s). */
const TICK_MS = 10_000;

interface PullRequestListProps {
  pulls: PullsChannel | null;
  /** Joined and online: a PR can be created. */
  isConnected: boolean;
}

/**
 * The sidebar's PR list (spec §2), newest first: status icon, title cut at 150 px, author
 * and how long ago. A row opens the review panel on that PR (read-only for non-hosts).
 */
export function PullRequestList({ pulls, isConnected }: PullRequestListProps) {
  const prs = usePullsStore((s) => s.prs);
  const isCreating = usePullsStore((s) => s.isCreating);
  const actions = usePullActions(pulls);
  const now = useNow(TICK_MS);
  const sorted = useMemo(() => newestFirst(prs), [prs]);

  return (
    <section className="sidebar-section pr-section" aria-label="Pull requests" data-testid="pr-list">
      <div className="sidebar-heading-row">
        <h2 className="sidebar-heading">
          Pull requests <span className="sidebar-count">{prs.length}</span>
        </h2>
        <button
          type="button"
          className="pr-new-button"
          disabled={!pulls || !isConnected || isCreating}
          aria-busy={isCreating}
          onClick={() => void actions.create()}
        >
          {isCreating && <Spinner />}
          New PR
        </button>
      </div>
      {sorted.length === 0 ? (
        <p className="pr-empty">No pull requests yet.</p>
      ) : (
        <ul className="pr-list">
          {sorted.map((pr) => (
            <li key={pr.id} data-pr-id={pr.id} data-status={pr.status}>
              <button type="button" className="pr-row" title={pr.title} onClick={() => openPanel(pr)}>
                <PrRowContent pr={pr} now={now} titleClass="pr-row-title" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
