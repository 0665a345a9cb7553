const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function count(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? "" : "s"} ago`;
}

/**
 * How long ago `iso` was, in the PR list's words (spec §2): seconds, minutes, hours, days
 * under 30, then months (of 30 days). A time ahead of `now` (another machine's clock) reads
 * as just now; an unreadable one as an empty string.
 */
export function relativeTime(iso: string, now: number): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return "";
  const elapsed = now - then;
  if (elapsed < SECOND) return "just now";
  if (elapsed < MINUTE) return count(Math.floor(elapsed / SECOND), "second");
  if (elapsed < HOUR) return count(Math.floor(elapsed / MINUTE), "minute");
  if (elapsed < DAY) return count(Math.floor(elapsed / HOUR), "hour");
  const days = Math.floor(elapsed / DAY);
  if (days < 30) return count(days, "day");
  return count(Math.floor(days / 30), "month");
}

/** A date and time for the review panel, in the reader's locale; "" when unreadable. */
export function formatDateTime(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? "" : new Date(time).toLocaleString();
}
