import { useId, useState } from "react";
import { useGitStore } from "./store";
import type { GitActions } from "./useGitActions";

interface GitCommitProps {
  actions: GitActions;
  canRun: boolean;
}

/** The commit message box and Commit; an empty message is asked for (see useGitActions). */
export function GitCommit({ actions, canRun }: GitCommitProps) {
  const [message, setMessage] = useState("");
  const hasStaged = useGitStore((s) => s.status?.entries.some((e) => e.staged) ?? false);
  const id = useId();

  const handleCommit = async () => {
    if (await actions.commit(message)) setMessage("");
  };

  return (
    <div className="git-commit">
      <label className="visually-hidden" htmlFor={id}>
        Commit message
      </label>
      <textarea
        id={id}
        className="git-input git-message"
        rows={2}
        value={message}
        placeholder={hasStaged ? "Commit message" : "Stage changes, then commit"}
        onChange={(event) => setMessage(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && canRun) {
            event.preventDefault();
            void handleCommit();
          }
        }}
      />
      <button
        type="button"
        className="button button-primary git-commit-button"
        disabled={!canRun}
        onClick={() => void handleCommit()}
      >
        Commit
      </button>
    </div>
  );
}
