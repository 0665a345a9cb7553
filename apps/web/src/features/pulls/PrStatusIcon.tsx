import type { PrStatus } from "@ensemble/protocol";
import type { ReactNode } from "react";

/** Each status in words, as the list's icons and the panel's pill say it. */
export const STATUS_WORDS: Record<PrStatus, string> = {
  pending: "Pending",
  approved: "Approved",
  rejected: "Rejected",
  "changes-requested": "Changes requested",
  merged: "Merged",
};

const STROKE = {
  fill: "none",
  stroke: "currentColor",
  strokeWidth: 2,
  strokeLinecap: "round",
  strokeLinejoin: "round",
} as const;

const ICONS: Record<PrStatus, ReactNode> = {
  pending: (
    <>
      <circle cx="12" cy="12" r="8" {...STROKE} />
      <path d="M12 8v4l3 2" {...STROKE} />
    </>
  ),
  approved: <path d="M5 12.5l4.5 4.5L19 7.5" {...STROKE} />,
  rejected: <path d="M7 7l10 10M17 7L7 17" {...STROKE} />,
  "changes-requested": (
    <>
      <path d="M5 6h14v9H10l-4 3v-3H5z" {...STROKE} />
      <path d="M12 8.5v3M12 13.5v.01" {...STROKE} />
    </>
  ),
  merged: (
    <>
      <circle cx="7" cy="6" r="2" {...STROKE} />
      <circle cx="7" cy="18" r="2" {...STROKE} />
      <circle cx="17" cy="12" r="2" {...STROKE} />
      <path d="M7 8v8M7 8c0 3 4 4 8 4" {...STROKE} />
    </>
  ),
};

const UNKNOWN = (
  <>
    <circle cx="12" cy="12" r="8" {...STROKE} />
    <path d="M10 10a2 2 0 1 1 3 1.7c-.7.4-1 .8-1 1.5M12 16v.01" {...STROKE} />
  </>
);

/** A PR's status as a coloured icon whose name is the status in words. */
export function PrStatusIcon({ status }: { status: PrStatus }) {
  const isKnown = Object.hasOwn(ICONS, status);
  const word = isKnown ? STATUS_WORDS[status] : "Unknown";
  return (
    <svg
      className={`pr-status-icon pr-status-${isKnown ? status : "unknown"}`}
      width="16"
      height="16"
      viewBox="0 0 24 24"
      role="img"
      aria-label={word}
    >
      <title>{word}</title>
      {isKnown ? ICONS[status] : UNKNOWN}
    </svg>
  );
}
