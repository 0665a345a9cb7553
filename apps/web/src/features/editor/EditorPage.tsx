import { DEMO_SESSION_ID } from "@ensemble/protocol";
import { useParams } from "react-router-dom";
import "../../styles/editor.css";
import "../../styles/workspace.css";
import "../../styles/terminal.css";
import "../../styles/git.css";
import "../../styles/pulls.css";
import "../../styles/calls.css";
import "../../styles/chat.css";
import "../../styles/roles.css";
import "../../styles/replay.css";
import "../../styles/intelligence.css";
import "../../styles/compact.css";
import { EditorScreen } from "./EditorScreen";

/** Route /code-editor-dashboard[/:sessionId]; without an id it opens the public demo session. */
export default function EditorPage() {
  const { sessionId = DEMO_SESSION_ID } = useParams();
  // A new id is a new session: a fresh document, socket and state.
  return <EditorScreen key={sessionId} sessionId={sessionId} />;
}
