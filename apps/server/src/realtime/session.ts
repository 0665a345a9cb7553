import { ROLE_MESSAGES, type Role } from "@ensemble/protocol";
import { DomainError } from "../errors";
import type { EditorSocket, SocketSession } from "./socket";

/** The socket.io room of a session: every socket that joined it, for broadcasts to them all. */
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;

/** The room of a session's host sockets, on every node: who waits in the lobby is told there. */
export const HOST_ROOM_PREFIX = "session-host:";
export const hostRoom = (sessionId: string) => `${HOST_ROOM_PREFIX}${sessionId}`;

/**
 * The session this socket joined, when it is `sessionId`; otherwise throws the `not_joined`
 * refusal. Every session event of every feature checks membership through this one function.
 */
export function requireJoined(socket: EditorSocket, sessionId: string): SocketSession {
  const session = socket.data.session;
  if (session?.id !== sessionId) throw new DomainError("not_joined", "Join the session first");
  return session;
}

/**
 * What a role may do (DESIGN decision 17): `edit` is every change to the session (its
 * documents, files, language, runs, terminal commands that change something, pull requests),
 * for the host and editors; `manage` is the host's controls. Viewers read and talk only.
 */
export type SessionAction = "edit" | "manage";

/** Whether `role` may `action`: the one table of the role rules. */
export function roleCan(role: Role, action: SessionAction): boolean {
  return action === "manage" ? role === "host" : role !== "viewer";
}

/**
 * The joined session, when this socket's role (as the server holds it now) may `action`;
 * otherwise throws `read_only` (a viewer's change) or `forbidden` (a host control).
 */
export function requireCan(socket: EditorSocket, sessionId: string, action: SessionAction): SocketSession {
  const session = requireJoined(socket, sessionId);
  if (roleCan(session.role, action)) return session;
  if (action === "edit") throw new DomainError("read_only", ROLE_MESSAGES.readOnly);
  throw new DomainError("forbidden", ROLE_MESSAGES.hostOnly);
}
