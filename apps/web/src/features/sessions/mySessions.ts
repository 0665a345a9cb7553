import type { MySession, Role } from "@ensemble/protocol";

/** The editor's address of a session; with `replay`, the editor opens its replay once joined. */
export function sessionPath(sessionId: string, replay = false): string {
  return `/code-editor-dashboard/${encodeURIComponent(sessionId)}${replay ? "?replay=1" : ""}`;
}

/** The query parameter that opens the replay panel once the session is joined. */
export const REPLAY_PARAM = "replay";

const ROLE_LABELS: Record<Role, string> = { host: "Host", editor: "Editor", viewer: "Viewer" };

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/** "just now", "5 minutes ago", "yesterday"… in `locale` (the browser's when not given). */
export function relativeTime(iso: string, now: number, locale?: string): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit);
  }
  return Math.abs(seconds) < 45 ? "just now" : format.format(seconds, "second");
}

/** What a row of My sessions shows and offers. */
export interface SessionRowView {
  roleLabel: string;
  peopleLabel: string;
  status: "Live" | "Ended";
  /** Open goes to the editor; an ended session opens on its replay. */
  openLabel: "Open" | "Open replay";
  openPath: string;
  /** End and Delete are the host's (the server checks it too). */
  canEnd: boolean;
  canDelete: boolean;
}

export function describeRow(session: MySession): SessionRowView {
  const isEnded = session.ended_at !== null;
  const isHost = session.role === "host";
  const count = session.participant_count;
  return {
    roleLabel: ROLE_LABELS[session.role],
    peopleLabel: `${count} ${count === 1 ? "person" : "people"}`,
    status: isEnded ? "Ended" : "Live",
    openLabel: isEnded ? "Open replay" : "Open",
    openPath: sessionPath(session.session_id, isEnded),
    canEnd: isHost && !isEnded,
    canDelete: isHost,
  };
}

/**
 * The page to show after a row left the list (deleted): the same page, or the one before when
 * the row was the last on a page past the first.
 */
export function pageAfterRemoval(page: number, rowsLeft: number): number {
  return rowsLeft === 0 && page > 1 ? page - 1 : page;
}
