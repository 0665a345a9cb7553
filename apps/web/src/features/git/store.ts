import type { GithubTarget, GitOperationName, GitOutcome, GitStatus, GitUser } from "@ensemble/protocol";
import { create } from "zustand";
import { forgetStoredToken, readStoredTarget, storeTarget } from "./credentials";

interface GitState {
  /** The repository's last known status (from an answer or a `gitStatus` broadcast), or null. */
  status: GitStatus | null;
  /** Branch names as the server lists them: the current one prefixed `* `, others `  `. */
  branches: string[];
  /** The GitHub account the connection belongs to, once GitHub confirmed it. */
  user: GitUser | null;
  /** The host's GitHub connection (also in localStorage); null until connected. */
  target: GithubTarget | null;
  /** The operation we started and wait for (commands are single-flight), or null. */
  busy: GitOperationName | null;
}

const initial: GitState = { status: null, branches: [], user: null, target: null, busy: null };

/** Version control as this browser knows it; written by the git runner and channel only. */
export const useGitStore = create<GitState>()(() => initial);

/** A fresh state for a new session; a stored connection is picked up again. */
export function resetGit(): void {
  useGitStore.setState({ ...initial, target: readStoredTarget() });
}

export function setBusy(busy: GitOperationName | null): void {
  useGitStore.setState({ busy });
}

export function applyStatus(status: GitStatus): void {
  useGitStore.setState({ status });
}

/** What an operation answered: the repository as it now is, and the account after a connect. */
export function applyOutcome(outcome: GitOutcome): void {
  useGitStore.setState((s) => ({
    status: outcome.status,
    branches: outcome.branches,
    user: outcome.user ?? s.user,
  }));
}

/** GitHub accepted `target`: it is kept here and in localStorage. */
export function setConnected(target: GithubTarget): void {
  storeTarget(target);
  useGitStore.setState({ target });
}

/** Ends the connection (GitHub refused the token, or the host disconnected): the token is forgotten. */
export function disconnect(): void {
  forgetStoredToken();
  useGitStore.setState({ target: null, user: null });
}

/** The branch names without their markers, and the current one. */
export function readBranches(branches: readonly string[]): { names: string[]; current: string | null } {
  const names = branches.map((b) => b.slice(2).trim()).filter(Boolean);
  const marked = branches.find((b) => b.startsWith("* "));
  return { names, current: marked ? marked.slice(2).trim() : null };
}
