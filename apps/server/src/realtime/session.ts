import { SocketEventError } from "./handle";
import type { EditorSocket, SocketSession } from "./socket";

/** The socket.io room of a session: every socket that joined it, for broadcasts to them all. */
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;

/**
 * The session this socket joined, when it is `sessionId`; otherwise throws the `not_joined`
 * refusal. Every session event of every feature checks membership through this one function.
 */
export function requireJoined(socket: EditorSocket, sessionId: string): SocketSession {
  const session = socket.data.session;
  if (session?.id !== sessionId) throw new SocketEventError("not_joined", "Join the session first");
  return session;
}
