import type { Presence, Role } from "@ensemble/protocol";
import { HOST_ROOM_PREFIX, hostRoom, requireJoined, roleCan, sessionRoom } from "./session";
import type { EditorServer, EditorSocket, SocketSession } from "./socket";

/**
 * Who asks, in the session their socket joined: what every feature's service needs of a
 * request's sender, built once here from `socket.data` (the role as the server holds it now).
 */
export interface Actor {
  /** The participant id: the account id, or `guest-…` for a guest. */
  id: string;
  name: string;
  /** The account id of a signed-in user (guests have none). */
  userId: string | undefined;
  role: Role;
  /** `role === "host"`: host-only operations ask this. */
  isHost: boolean;
  /** Whether the role may change the session (not a viewer). */
  canEdit: boolean;
  /** Whose budget a rate limit counts against: a user's own, or a guest's address (a guest can come back as a new one at will). */
  rateKey: string;
}

/** The actor of a request from `socket` about `sessionId`; throws `not_joined` unless it joined it. */
export function actorOf(socket: EditorSocket, sessionId: string): Actor {
  const { role } = requireJoined(socket, sessionId);
  const { identity } = socket.data;
  const isUser = identity.kind === "user";
  return {
    id: identity.id,
    name: identity.name,
    userId: isUser ? identity.id : undefined,
    role,
    isHost: role === "host",
    canEdit: roleCan(role, "edit"),
    rateKey: isUser ? `user:${identity.id}` : `guest:${socket.handshake.address}`,
  };
}

/** What everyone sees of a joined socket, derived from its identity and its one stored role. */
export function presenceOf(socket: EditorSocket, session: SocketSession): Presence {
  const { identity } = socket.data;
  const { role } = session;
  return {
    id: identity.id,
    name: identity.name,
    isHost: role === "host",
    isGuest: identity.kind === "guest",
    role,
  };
}

/**
 * Who is in which session: the one place that enters a socket into a session (its role stored
 * once, in `socket.data.session`, which every check reads) and the one place that lists a
 * session's sockets. Lists are of this node's sockets: every socket of a session is on its owner
 * node (DESIGN decision 16), so the local adapter's rooms are the whole session; only
 * `fetchSocketsOf` asks the cluster.
 */
export class PresenceRegistry {
  constructor(private readonly io: EditorServer) {}

  /** Enters `socket` into a session as `role`, in its room for the session's broadcasts. */
  async enter(socket: EditorSocket, sessionId: string, role: Role): Promise<SocketSession> {
    const session: SocketSession = { id: sessionId, participantId: socket.data.identity.id, role };
    socket.data.session = session;
    await socket.join(
      role === "host" ? [sessionRoom(sessionId), hostRoom(sessionId)] : sessionRoom(sessionId),
    );
    return session;
  }

  /** Takes `socket` out of its session and the session's room. */
  async exit(socket: EditorSocket, sessionId: string): Promise<void> {
    if (socket.data.session?.id === sessionId) socket.data.session = undefined;
    await socket.leave(hostRoom(sessionId));
    await socket.leave(sessionRoom(sessionId));
  }

  /**
   * The ids of the session's sockets on this node, as the adapter holds them (not a copy: it
   * is read for every relayed keystroke). Undefined when there are none.
   */
  socketIds(sessionId: string): ReadonlySet<string> | undefined {
    return this.io.sockets.adapter.rooms.get(sessionRoom(sessionId));
  }

  /** The sessions whose host has a socket on this node. */
  hostedHere(): string[] {
    const sessionIds: string[] = [];
    for (const room of this.io.sockets.adapter.rooms.keys()) {
      if (room.startsWith(HOST_ROOM_PREFIX)) sessionIds.push(room.slice(HOST_ROOM_PREFIX.length));
    }
    return sessionIds;
  }

  /** The session's sockets on this node. */
  sockets(sessionId: string): EditorSocket[] {
    const sockets: EditorSocket[] = [];
    for (const socketId of this.socketIds(sessionId) ?? []) {
      const socket = this.io.sockets.sockets.get(socketId);
      if (socket) sockets.push(socket);
    }
    return sockets;
  }

  /** One person's sockets in the session (every tab they have open in it). */
  socketsOf(sessionId: string, participantId: string): EditorSocket[] {
    return this.sockets(sessionId).filter((s) => s.data.session?.participantId === participantId);
  }

  /** Whether the person has a socket in the session. */
  isHere(sessionId: string, participantId: string): boolean {
    return this.socketsOf(sessionId, participantId).length > 0;
  }

  /** Who is in the session now, one entry per person however many tabs they have open. */
  list(sessionId: string): Presence[] {
    const seen = new Map<string, Presence>();
    for (const socket of this.sockets(sessionId)) {
      const session = socket.data.session;
      if (session?.id === sessionId && !seen.has(session.participantId))
        seen.set(session.participantId, presenceOf(socket, session));
    }
    return [...seen.values()];
  }

  /** Gives every socket of one person in the session the new role: every later check reads it. */
  setRole(sessionId: string, participantId: string, role: Role): void {
    for (const socket of this.socketsOf(sessionId, participantId)) {
      if (socket.data.session) socket.data.session.role = role;
      // Joining a room is local to this node (the adapter only subscribes): nothing to wait for.
      if (role === "host") void socket.join(hostRoom(sessionId));
      else void socket.leave(hostRoom(sessionId));
    }
  }

  /**
   * One person's sockets in the session on every node of the cluster (socket.io asks the others
   * through its adapter): for a message that must reach them wherever they are.
   */
  async fetchSocketsOf(sessionId: string, participantId: string) {
    const sockets = await this.io.in(sessionRoom(sessionId)).fetchSockets();
    return sockets.filter((s) => s.data.identity?.id === participantId);
  }
}
