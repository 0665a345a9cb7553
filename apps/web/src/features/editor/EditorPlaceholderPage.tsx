import { DEMO_SESSION_ID } from "@ensemble/protocol";
import { Link, useParams } from "react-router-dom";

/** Stand-in for the editor screen (the next issue): shows which session the user landed in. */
export function EditorPlaceholderPage() {
  const { sessionId = DEMO_SESSION_ID } = useParams();
  return (
    <div className="page container center-page">
      <p className="eyebrow">Editor</p>
      <h1>Session</h1>
      <p>
        Session ID: <code data-testid="session-id">{sessionId}</code>
      </p>
      <p className="muted">The collaborative editor is on its way.</p>
      <Link to="/" className="button button-ghost">
        Back to home
      </Link>
    </div>
  );
}
