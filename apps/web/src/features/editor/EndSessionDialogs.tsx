import { useState } from "react";
import { Dialog } from "../../ui/Dialog";
import { Spinner } from "../../ui/Spinner";

/** The spec's texts of the end-of-session flow. */
export const END_SESSION_TEXT = {
  ended: "Session ended Successfully",
  hostEnding: "The session host is ending this session. You can create a pull request with your changes.",
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

interface SessionEndingProps {
  isOpen: boolean;
  onClose: () => void;
  onLeave: () => void;
}

/**
 * What a participant sees when the host ends the session. Creating a pull request from
 * here comes with the pull-request issue; until then the way out is End Without PR.
 */
export function SessionEndingDialog({ isOpen, onClose, onLeave }: SessionEndingProps) {
  return (
    <Dialog isOpen={isOpen} title="SESSION ENDING" onClose={onClose}>
      <p>{END_SESSION_TEXT.hostEnding}</p>
      <div className="dialog-actions">
        <button type="button" className="button button-primary" onClick={onLeave}>
          End Without PR
        </button>
      </div>
    </Dialog>
  );
}
