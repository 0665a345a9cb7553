import { useState } from "react";
import { Dialog } from "../../ui/Dialog";
import { Spinner } from "../../ui/Spinner";
import { useCollabStore } from "../collab/store";
import { useGitStore } from "../git/store";
import type { PullsChannel } from "../pulls/channel";
import { describeEndDialog, useEndWithPr, useGithubLogin } from "./endSession";

/** The spec's texts of the end-of-session flow. */
export const END_SESSION_TEXT = {
  ended: "Session ended Successfully",
  hostEnding: "The session host is ending this session. You can create a pull request with your changes.",
  leaving: "The session is ending for you. Create a pull request to persist your changes.",
  githubNote:
    "log in to GitHub first for your changes to reach GitHub. The host publishes a pull request there when approving it; without a GitHub login it is kept in this session's repository only.",
} as const;

interface ConfirmEndProps {
  isOpen: boolean;
  onClose: () => void;
  onConfirm: () => Promise<void>;
}

/** The host's 'Confirm Session Termination' modal; Escape or a click outside closes it. */
export function ConfirmEndDialog({ isOpen, onClose, onConfirm }: ConfirmEndProps) {
  const [isEnding, setIsEnding] = useState(false);
  return (
    <Dialog isOpen={isOpen} title="Confirm Session Termination" onClose={onClose}>
      <p>
        Ending the session ends it for all participants: unsaved work is lost and every participant is
        disconnected.
      </p>
      <div className="dialog-actions">
        <button type="button" className="button button-ghost" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="button button-danger"
          disabled={isEnding}
          onClick={() => {
            setIsEnding(true);
            void onConfirm().finally(() => setIsEnding(false));
          }}
        >
          {isEnding && <Spinner />}
          End Session
        </button>
      </div>
    </Dialog>
  );
}

/** Why the dialog opened: the host ends the session for everyone, or this participant leaves. */
export type EndingReason = "host" | "self";

interface SessionEndingProps {
  isOpen: boolean;
  reason: EndingReason;
  sessionId: string;
  pulls: PullsChannel | null;
  onClose: () => void;
  onLeave: () => void;
}

/**
 * SESSION ENDING (spec §2): the way out, with or without a pull request of the workspace.
 * Not connected to GitHub, it offers GitHub Login as the spec says, and Create Pull Request
 * still: the PR is a branch on our server, published to GitHub when the host approves it.
 * Closing is refused while a PR is on its way or made (the exit follows 3 s after it) and
 * while the page is leaving for GitHub.
 */
export function SessionEndingDialog({
  isOpen,
  reason,
  sessionId,
  pulls,
  onClose,
  onLeave,
}: SessionEndingProps) {
  const isAuthenticated = useGitStore((s) => s.target !== null);
  const isHost = useCollabStore((s) => s.sessionId === sessionId && s.self?.isHost === true);
  const { phase, create } = useEndWithPr(pulls, sessionId, onLeave);
  const { isAuthenticating, login } = useGithubLogin(sessionId, isHost);
  const view = describeEndDialog(isAuthenticated, phase, isAuthenticating);
  return (
    <Dialog isOpen={isOpen} title="SESSION ENDING" onClose={() => view.canEndWithoutPr && onClose()}>
      <p>{reason === "host" ? END_SESSION_TEXT.hostEnding : END_SESSION_TEXT.leaving}</p>
      <p className="end-note">
        <strong>Important:</strong> {END_SESSION_TEXT.githubNote}
      </p>
      <p className="end-github-status" data-testid="end-github-status">
        GitHub Status: {view.githubStatus}
      </p>
      <div className="dialog-actions">
        <button
          type="button"
          className="button button-ghost"
          disabled={!view.canEndWithoutPr}
          onClick={onLeave}
        >
          End Without PR
        </button>
        {view.showsLogin && (
          <button
            type="button"
            className="button button-ghost"
            disabled={!view.canLogin}
            aria-busy={isAuthenticating}
            onClick={() => void login()}
          >
            {isAuthenticating && <Spinner />}
            {view.loginLabel}
          </button>
        )}
        <button
          type="button"
          className="button button-primary"
          disabled={!view.canCreate || pulls === null}
          onClick={() => void create()}
        >
          {phase === "creating" && <Spinner />}
          {view.createLabel}
        </button>
      </div>
    </Dialog>
  );
}
