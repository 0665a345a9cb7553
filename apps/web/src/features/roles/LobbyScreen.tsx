import { Link } from "react-router-dom";
import { Spinner } from "../../ui/Spinner";
import type { LobbyStatus } from "./store";

/** Shown instead of the editor while the host decides whether we may enter a locked session. */
export function LobbyScreen({ status }: { status: Exclude<LobbyStatus, "none"> }) {
  const isWaiting = status === "waiting";
  return (
    <div className="page container center-page" data-testid="lobby">
      <p className="eyebrow">Lobby</p>
      <h1>{isWaiting ? "Waiting for the host" : "You were not let in"}</h1>
      <p className="muted" role="status">
        {isWaiting
          ? "This session is locked. The host has been told you are here; you will enter as soon as they let you in."
          : "The host did not let you into this session."}
      </p>
      {isWaiting && (
        <div className="lobby-wait">
          <Spinner />
        </div>
      )}
      <div className="center-actions">
        <Link to="/" className="button button-ghost">
          {isWaiting ? "Leave" : "Back to home"}
        </Link>
      </div>
    </div>
  );
}
