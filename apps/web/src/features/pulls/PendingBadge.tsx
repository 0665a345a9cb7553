import { usePulse } from "./hooks";
import { pendingCount } from "./prList";
import { openPendingReviews, usePullsStore } from "./store";

/**
 * The host's pending-PR count in the top bar (spec §2): shown at 0, pulsing for 1 s when
 * the count changes; it opens the review panel on its pending tab.
 */
export function PendingBadge() {
  const count = usePullsStore((s) => pendingCount(s.prs));
  const isPulsing = usePulse(count);
  const label = `${count} pending pull request${count === 1 ? "" : "s"}`;
  return (
    <button
      type="button"
      className={`pr-badge${count > 0 ? " has-pending" : ""}${isPulsing ? " is-pulsing" : ""}`}
      data-testid="pr-pending-badge"
      data-count={count}
      data-pulsing={isPulsing}
      aria-label={`Review pull requests: ${label}`}
      title={label}
      onClick={openPendingReviews}
    >
      <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true">
        <circle cx="6" cy="6" r="2" fill="none" stroke="currentColor" strokeWidth="2" />
        <circle cx="6" cy="18" r="2" fill="none" stroke="currentColor" strokeWidth="2" />
        <circle cx="18" cy="18" r="2" fill="none" stroke="currentColor" strokeWidth="2" />
        <path
          d="M6 8v8M18 16V9a3 3 0 0 0-3-3h-4m0 0 2-2m-2 2 2 2"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <span className="pr-badge-count">{count}</span>
    </button>
  );
}
