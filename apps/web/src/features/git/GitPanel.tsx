import { GIT_MESSAGES, type GitOperationName } from "@ensemble/protocol";
import { useEffect, useRef, useState } from "react";
import type { GitChannel } from "./channel";
import { type ConsentAnswer, takeConsentFromAddress } from "./credentials";
import { showFailure, showInfo } from "./feedback";
import { GitAuthDialog } from "./GitAuthDialog";
import { GitBranches } from "./GitBranches";
import { GitChanges } from "./GitChanges";
import { GitCommit } from "./GitCommit";
import { useGitStore } from "./store";
import { useGitActions } from "./useGitActions";

interface GitPanelProps {
  git: GitChannel | null;
  isHost: boolean;
  /** Joined and online: operations can reach the server. */
  isConnected: boolean;
}

/** What the panel says while an operation of ours runs. */
const BUSY_WORDS: Record<GitOperationName, string> = {
  status: "Refreshing status",
  add: "Staging",
  unstage: "Unstaging",
  commit: "Committing",
  branch: "Creating branch",
  switch: "Switching branch",
  merge: "Merging",
  log: "Reading log",
  diff: "Reading diff",
  init: "Initializing",
  connect: "Connecting to GitHub",
  push: "Pushing",
  pull: "Pulling",
};

/**
 * The sidebar's Git panel (spec §2): the host-only notice for others; for the host, GitHub
 * Login until connected, then the account, branches, changes, commit, push, pull and merge.
 */
export function GitPanel({ git, isHost, isConnected }: GitPanelProps) {
  const target = useGitStore((s) => s.target);
  const user = useGitStore((s) => s.user);
  const busy = useGitStore((s) => s.busy);
  const actions = useGitActions(git);
  const [isLoginOpen, setIsLoginOpen] = useState(false);
  const [consent, setConsent] = useState<Extract<ConsentAnswer, { token: string }> | null>(null);

  // Back from GitHub's consent ("Use my GitHub login"): its token fills the dialog in.
  // StrictMode runs effects twice in development; the address gives its answer once.
  const hasTakenConsent = useRef(false);
  useEffect(() => {
    if (hasTakenConsent.current) return;
    hasTakenConsent.current = true;
    void takeConsentFromAddress().then((answer) => {
      if (!answer) return;
      if ("error" in answer) {
        showFailure({ code: "github_auth", message: answer.error || GIT_MESSAGES.authCancelled });
        return;
      }
      setConsent(answer);
      setIsLoginOpen(true);
    });
  }, []);
  const canRun = git !== null && isConnected && busy === null;

  const handleLoginClose = (isDone: boolean) => {
    setIsLoginOpen(false);
    setConsent(null);
    if (!isDone) showInfo(GIT_MESSAGES.authCancelled);
  };

  return (
    <section className="sidebar-section git-panel" aria-label="Git" data-testid="git-panel">
      <div className="sidebar-heading-row">
        <h2 className="sidebar-heading">Git</h2>
        {busy && (
          <span className="git-busy" role="status" data-testid="git-busy">
            {BUSY_WORDS[busy]}…
          </span>
        )}
      </div>
      {!isHost ? (
        <p className="git-note">
          <strong className="git-note-title">Host-only feature</strong> {GIT_MESSAGES.hostOnlyNotice}
        </p>
      ) : !target ? (
        <div className="git-login">
          <button
            type="button"
            className="button button-primary git-login-button"
            disabled={!canRun}
            onClick={() => setIsLoginOpen(true)}
          >
            GitHub Login
          </button>
          <p className="git-note">{GIT_MESSAGES.loginFirst}</p>
        </div>
      ) : (
        <div className="git-body">
          <div className="git-account">
            <span className="git-account-name" data-testid="git-user">
              {user ? (
                <a href={user.url} target="_blank" rel="noreferrer">
                  {user.name || user.username}
                </a>
              ) : (
                "GitHub"
              )}
            </span>
            <span className="git-repo" title="Repository">
              {target.owner}/{target.repo}
            </span>
            <button
              type="button"
              className="git-link-button"
              disabled={busy !== null}
              onClick={actions.disconnect}
            >
              Disconnect
            </button>
          </div>
          <GitBranches actions={actions} canRun={canRun} />
          <GitChanges actions={actions} canRun={canRun} />
          <GitCommit actions={actions} canRun={canRun} />
          <div className="git-row git-remote">
            <button
              type="button"
              className="git-button"
              disabled={!canRun}
              onClick={() => void actions.pull()}
            >
              Pull
            </button>
            <button
              type="button"
              className="git-button"
              disabled={!canRun}
              onClick={() => void actions.push()}
            >
              Push
            </button>
          </div>
        </div>
      )}
      <GitAuthDialog
        isOpen={isLoginOpen}
        isBusy={busy === "connect"}
        onSubmit={actions.connect}
        onClose={handleLoginClose}
        sessionId={git?.sessionId ?? null}
        prefill={consent}
      />
    </section>
  );
}
