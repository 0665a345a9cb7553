import { PR_MESSAGES, type PrReviewed, type PullRequest } from "@ensemble/protocol";
import { type ToastPosition, toast } from "react-toastify/unstyled";

/** Short confirmations stay 3 s (spec §9); news a person must read stays longer. */
const SHORT_MS = 3000;
const NEWS_MS = 8000;

/** Where a toast shows when not at the container's default (the end dialog's are at the bottom, spec §2). */
export type ToastPlacement = ToastPosition | undefined;

export function showFailure(message: string, position?: ToastPlacement): void {
  toast.error(message, { autoClose: SHORT_MS, ...(position ? { position } : {}) });
}

export function showInfo(message: string): void {
  toast.info(message, { autoClose: SHORT_MS });
}

/**
 * What the server answered an action; GitHub's failure after a local success, or a review
 * comment GitHub did not take, is a warning.
 */
export function showOutcome(message: string, position?: ToastPlacement): void {
  const placed = position ? { position } : {};
  const isPartial =
    message.startsWith(PR_MESSAGES.githubFailed) || message.includes(PR_MESSAGES.commentNotPostedNote);
  if (isPartial) toast.warning(message, { autoClose: NEWS_MS, ...placed });
  else toast.success(message, { autoClose: SHORT_MS, ...placed });
}

/**
 * GitHub would not open the pull request: the host finishes it on GitHub's compare page
 * (spec §8). A link the host clicks, since a tab opened seconds after the click is blocked
 * as a pop-up; the toast stays until closed.
 */
export function showCompareLink(message: string, compareUrl: string): void {
  toast.warning(
    <span>
      {message}{" "}
      <a href={compareUrl} target="_blank" rel="noreferrer" className="pr-toast-link">
        Open the pull request page on GitHub
      </a>
    </span>,
    { autoClose: false },
  );
}

/** The host hears of a new PR; clicking the toast opens it for review. */
export function notifyHost(pr: PullRequest, onOpen: () => void): void {
  toast.info(`New pull request "${pr.title}" from ${pr.author}. ${PR_MESSAGES.hostCanReview}`, {
    autoClose: NEWS_MS,
    toastId: `pr-arrived-${pr.id}`,
    onClick: onOpen,
  });
}

/** The author hears how the host reviewed their PR (the server wrote the terminal line). */
export function notifyAuthor({ pr, message }: PrReviewed): void {
  const options = { autoClose: NEWS_MS, toastId: `pr-reviewed-${pr.id}-${pr.status}` };
  if (pr.status === "approved" || pr.status === "merged") toast.success(message, options);
  else if (pr.status === "rejected") toast.error(message, options);
  else toast.warning(message, options);
}
