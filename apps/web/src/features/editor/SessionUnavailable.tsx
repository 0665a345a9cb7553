import { Link } from "react-router-dom";
import type { SessionFailure } from "../collab/store";

/** Shown instead of the editor when the session cannot be opened (unknown id, outdated app). */
export function SessionUnavailable({ sessionId, failure }: { sessionId: string; failure: SessionFailure }) {
  const isMissing = failure.code === "not_found";
  return (
    <div className="page container center-page">
      <p className="eyebrow">Editor</p>
      <h1>{isMissing ? "Session not found" : "Cannot open this session"}</h1>
      <p className="muted">
        {isMissing ? (
          <>
            There is no session <code>{sessionId}</code>. Check the link, or ask the host for the session ID.
          </>
        ) : (
          failure.message
        )}
      </p>
      <div className="center-actions">
        <Link to="/" className="button button-primary">
          Back to home
        </Link>
        {!isMissing && (
          <button type="button" className="button button-ghost" onClick={() => window.location.reload()}>
            Reload Page
          </button>
        )}
      </div>
    </div>
  );
}
