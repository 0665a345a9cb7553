import { statusLabel } from "./badge";
import { useGitStore } from "./store";
import type { GitActions } from "./useGitActions";

interface GitChangesProps {
  actions: GitActions;
  canRun: boolean;
}

/** The changed files with their M/A/D/R mark, staged or not, and Stage / Unstage per file or all. */
export function GitChanges({ actions, canRun }: GitChangesProps) {
  const entries = useGitStore((s) => s.status?.entries ?? null);
  const unstaged = entries?.filter((e) => !e.staged) ?? [];

  return (
    <div className="git-changes">
      <div className="git-row git-changes-head">
        <h3 className="git-subheading">
          Changes <span className="sidebar-count">{entries?.length ?? 0}</span>
        </h3>
        <button
          type="button"
          className="git-button"
          disabled={!canRun || unstaged.length === 0}
          onClick={() => void actions.stage([])}
        >
          Stage all
        </button>
      </div>
      {entries === null ? (
        <p className="git-empty">Status not loaded yet.</p>
      ) : entries.length === 0 ? (
        <p className="git-empty">No changes.</p>
      ) : (
        <ul className="git-files" data-testid="git-changes">
          {entries.map((entry) => {
            const label = statusLabel(entry.status);
            return (
              <li
                key={entry.path}
                className={`git-file${entry.staged ? " is-staged" : ""}`}
                data-path={entry.path}
                data-status={entry.status}
                data-staged={entry.staged}
              >
                <span className={`git-mark git-status-${entry.status}`} title={label.word} aria-hidden="true">
                  {label.letter}
                </span>
                <span className="git-file-path" title={entry.path}>
                  {entry.path}
                </span>
                <span className="visually-hidden">
                  {label.word}
                  {entry.staged ? ", staged" : ""}
                </span>
                <button
                  type="button"
                  className="git-file-action"
                  disabled={!canRun}
                  aria-label={`${entry.staged ? "Unstage" : "Stage"} ${entry.path}`}
                  title={entry.staged ? "Unstage" : "Stage"}
                  onClick={() =>
                    void (entry.staged ? actions.unstage([entry.path]) : actions.stage([entry.path]))
                  }
                >
                  {entry.staged ? "−" : "+"}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
