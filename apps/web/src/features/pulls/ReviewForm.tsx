import type { PullRequest, ReviewAction } from "@ensemble/protocol";
import { useId, useState } from "react";
import { Spinner } from "../../ui/Spinner";
import type { PullsChannel } from "./channel";
import { usePullsStore } from "./store";
import { usePullActions } from "./usePullActions";

const ACTIONS: { action: ReviewAction; label: string; className: string }[] = [
  { action: "request-changes", label: "Request Changes", className: "button-ghost" },
  { action: "reject", label: "Reject", className: "button-danger" },
  { action: "approve", label: "Approve & Create PR", className: "button-primary" },
];

interface ReviewFormProps {
  pr: PullRequest;
  pulls: PullsChannel | null;
  isConnected: boolean;
}

/**
 * The host's review of a pending PR: an optional comment and the three actions. While one
 * runs every action waits (its button shows a spinner); the server's answer is a toast.
 */
export function ReviewForm({ pr, pulls, isConnected }: ReviewFormProps) {
  const commentId = useId();
  const [comment, setComment] = useState("");
  const reviewing = usePullsStore((s) => s.reviewing);
  const actions = usePullActions(pulls);
  const isBusy = reviewing !== null;

  const handleReview = async (action: ReviewAction) => {
    if (await actions.review(pr, action, comment)) setComment("");
  };

  return (
    <form className="pr-review-form" aria-busy={isBusy} onSubmit={(event) => event.preventDefault()}>
      <label htmlFor={commentId} className="pr-review-label">
        Review comment
      </label>
      <textarea
        id={commentId}
        className="pr-review-comment"
        rows={3}
        placeholder="Optional: tell the author what you think"
        value={comment}
        disabled={isBusy}
        onChange={(event) => setComment(event.target.value)}
      />
      <div className="pr-review-actions">
        {ACTIONS.map(({ action, label, className }) => (
          <button
            key={action}
            type="button"
            className={`button ${className}`}
            disabled={isBusy || !isConnected || !pulls}
            aria-busy={reviewing?.prId === pr.id && reviewing.action === action}
            onClick={() => void handleReview(action)}
          >
            {reviewing?.prId === pr.id && reviewing.action === action && <Spinner />}
            {label}
          </button>
        ))}
      </div>
    </form>
  );
}
