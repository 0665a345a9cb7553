import type { PullRequest } from "@ensemble/protocol";
import { PrStatusIcon } from "./PrStatusIcon";
import { relativeTime } from "./relativeTime";

/** What a PR row shows, in the sidebar list and the review panel alike: status, title, author, age. */
export function PrRowContent({ pr, now, titleClass }: { pr: PullRequest; now: number; titleClass: string }) {
  return (
    <>
      <PrStatusIcon status={pr.status} />
      <span className="pr-row-text">
        <span className={titleClass}>{pr.title}</span>
        <span className="pr-row-meta">
          {pr.author} · <time dateTime={pr.createdAt}>{relativeTime(pr.createdAt, now)}</time>
        </span>
      </span>
    </>
  );
}
