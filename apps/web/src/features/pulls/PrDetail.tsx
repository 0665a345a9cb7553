import type { PullRequest } from "@ensemble/protocol";
import { useId } from "react";
import { Spinner } from "../../ui/Spinner";
import type { PullsChannel } from "./channel";
import { PrChanges } from "./PrChanges";
import { STATUS_WORDS } from "./PrStatusIcon";
import { isReviewable } from "./prList";
import { ReviewForm } from "./ReviewForm";
import { formatDateTime } from "./relativeTime";
import { usePullsStore } from "./store";

interface PrDetailProps {
  pr: PullRequest;
  pulls: PullsChannel | null;
  /** The host: a pending PR gets the comment box and the three actions. */
  canReview: boolean;
  isConnected: boolean;
}

/**
 * One PR in the review panel (spec §2): title, status, author, dates, branches, the hosted
 * PR, description, the side-by-side diff of every changed file and the review comment.
 */
export function PrDetail({ pr, pulls, canReview, isConnected }: PrDetailProps) {
  const titleId = useId();
  const isPending = isReviewable(pr.status);
  // The review's broadcast arrives before its answer: an approval may still be opening on GitHub.
  const finishing = usePullsStore((s) => (s.reviewing?.prId === pr.id && !isPending ? s.reviewing : null));
  return (
    <article className="pr-detail" aria-labelledby={titleId} data-pr-id={pr.id} data-status={pr.status}>
      <header className="pr-detail-header">
        <h3 id={titleId} className="pr-detail-title">
          {pr.title}
        </h3>
        <span className={`pr-pill pr-status-${pr.status}`} data-testid="pr-status">
          {STATUS_WORDS[pr.status] ?? pr.status}
        </span>
      </header>
      <dl className="pr-meta">
        <dt>Author</dt>
        <dd>{pr.author}</dd>
        <dt>Created</dt>
        <dd>
          <time dateTime={pr.createdAt}>{formatDateTime(pr.createdAt)}</time>
        </dd>
        {pr.reviewedAt && (
          <>
            <dt>Reviewed</dt>
            <dd>
              <time dateTime={pr.reviewedAt}>{formatDateTime(pr.reviewedAt)}</time>
              {pr.reviewedBy && ` by ${pr.reviewedBy}`}
            </dd>
          </>
        )}
        <dt>Branches</dt>
        <dd className="pr-branches">
          <code>{pr.sourceBranch}</code> → <code>{pr.targetBranch}</code>
        </dd>
        {pr.prUrl && (
          <>
            <dt>GitHub</dt>
            <dd>
              <a href={pr.prUrl} target="_blank" rel="noreferrer">
                {pr.prNumber !== null ? `Pull request #${pr.prNumber}` : "Pull request"}
              </a>
            </dd>
          </>
        )}
      </dl>
      <section className="pr-detail-section" aria-label="Description">
        <h4>Description</h4>
        <p className="pr-description">{pr.description || "No description."}</p>
      </section>
      <section className="pr-detail-section" aria-label="Code changes">
        <h4>Code changes</h4>
        <PrChanges pulls={pulls} prId={pr.id} />
      </section>
      {pr.comments && (
        <section className="pr-detail-section" aria-label="Review comments">
          <h4>Review comments</h4>
          <p className="pr-description" data-testid="pr-review-comment">
            {pr.comments}
          </p>
        </section>
      )}
      {finishing && (
        <p className="pr-note" role="status">
          <Spinner />{" "}
          {finishing.isPublishing ? "Opening the pull request on GitHub…" : "Finishing the review…"}
        </p>
      )}
      {isPending &&
        (canReview ? (
          <ReviewForm pr={pr} pulls={pulls} isConnected={isConnected} />
        ) : (
          <p className="pr-note">Waiting for the host's review.</p>
        ))}
    </article>
  );
}
