import type { GitFileStatus, GitStatus } from "@ensemble/protocol";

/** A status as the panel and the editor's badge show it: a letter and the word it stands for. */
export interface StatusLabel {
  status: GitFileStatus;
  letter: string;
  word: string;
}

const LABELS: Record<GitFileStatus, StatusLabel> = {
  modified: { status: "modified", letter: "M", word: "Modified" },
  added: { status: "added", letter: "A", word: "Added" },
  deleted: { status: "deleted", letter: "D", word: "Deleted" },
  renamed: { status: "renamed", letter: "R", word: "Renamed" },
};

export function statusLabel(status: GitFileStatus): StatusLabel {
  return LABELS[status];
}

/** The label of the file at `path` in `status`, or null when git sees it unchanged (or knows nothing). */
export function badgeFor(status: GitStatus | null, path: string | null): StatusLabel | null {
  if (!status || path === null) return null;
  const entry = status.entries.find((e) => e.path === path);
  return entry ? LABELS[entry.status] : null;
}
