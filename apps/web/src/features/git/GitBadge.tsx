import { badgeFor } from "./badge";
import { useGitStore } from "./store";

/** The editor's top-right badge: the open file's git status; nothing when the file is unchanged. */
export function GitBadge({ path }: { path: string | null }) {
  const label = useGitStore((s) => badgeFor(s.status, path));
  if (!label) return null;
  return (
    <span
      className={`git-badge git-status-${label.status}`}
      data-testid="git-badge"
      data-status={label.status}
      title={`Git status of ${path}: ${label.word}`}
    >
      {label.word}
    </span>
  );
}
