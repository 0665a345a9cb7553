import { type FormEvent, useId, useState } from "react";
import { readBranches, useGitStore } from "./store";
import type { GitActions } from "./useGitActions";

interface GitBranchesProps {
  actions: GitActions;
  canRun: boolean;
}

/** The current branch; switch to or merge another; create one from HEAD. */
export function GitBranches({ actions, canRun }: GitBranchesProps) {
  const branches = useGitStore((s) => s.branches);
  const statusBranch = useGitStore((s) => s.status?.branch ?? null);
  const { names, current } = readBranches(branches);
  const currentName = current ?? statusBranch;
  const others = names.filter((n) => n !== currentName);
  const [picked, setPicked] = useState("");
  const [newName, setNewName] = useState("");
  const otherId = useId();
  const newId = useId();
  // The pick may have been switched to or deleted since.
  const chosen = others.includes(picked) ? picked : (others[0] ?? "");

  const handleCreate = async (event: FormEvent) => {
    event.preventDefault();
    if (await actions.createBranch(newName)) setNewName("");
  };

  return (
    <div className="git-branches">
      <p className="git-current">
        On branch{" "}
        <strong className="git-branch-name" data-testid="git-branch">
          {currentName ?? "…"}
        </strong>
      </p>
      <label className="visually-hidden" htmlFor={otherId}>
        Other branch
      </label>
      <div className="git-row git-pick">
        <select
          id={otherId}
          className="git-select"
          value={chosen}
          disabled={others.length === 0}
          onChange={(event) => setPicked(event.target.value)}
        >
          {others.length === 0 && <option value="">No other branches</option>}
          {others.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="git-button"
          disabled={!canRun || chosen === ""}
          onClick={() => void actions.switchBranch(chosen)}
        >
          Switch
        </button>
        <button
          type="button"
          className="git-button"
          disabled={!canRun || chosen === ""}
          onClick={() => void actions.merge(chosen)}
        >
          Merge
        </button>
      </div>
      <form className="git-row" onSubmit={(event) => void handleCreate(event)}>
        <label className="visually-hidden" htmlFor={newId}>
          New branch name
        </label>
        <input
          id={newId}
          className="git-input"
          value={newName}
          placeholder="new-branch"
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => setNewName(event.target.value)}
        />
        <button type="submit" className="git-button" disabled={!canRun}>
          Create branch
        </button>
      </form>
    </div>
  );
}
