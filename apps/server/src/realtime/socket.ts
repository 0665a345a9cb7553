import { createHash, randomBytes } from "node:crypto";
import type { Server as HttpServer } from "node:http";
import {
  type ClientToServerEvents,
  CONNECT_ERRORS,
  HandshakeSchema,
  LIMITS,
  PROTOCOL_VERSION,
  type Role,
  type ServerToClientEvents,
} from "@ensemble/protocol";
import { Server, type ServerOptions, type Socket } from "socket.io";
import msgpackParser from "socket.io-msgpack-parser";
import type { AuthService } from "../features/auth/index";
import { createAdmission } from "./admission";
import type { SocketEvents } from "./handle";
import { releaseHandshakeRequests, trimHandshake } from "./handshakeRequest";

/** Who a socket acts as: a signed-in user or an anonymous guest. */
export type SocketIdentity =
  | { kind: "user"; id: string; name: string }
  | { kind: "guest"; id: string; name: "Anonymous" };

/**
 * The session a socket has joined, as every feature's socket handlers may read it. Written only
 * by realtime/presence.ts: the role is stored here and nowhere else.
 */
export interface SocketSession {
  id: string;
  /** The participant id: the user id, or `guest-…`. */
  participantId: string;
  /** Changed in place by the host's controls (`PresenceRegistry.setRole`). */
  role: Role;
}

export interface SocketData {
  identity: SocketIdentity;
  /** Set on `joinSession`, cleared on leave (realtime/presence.ts). */
  session?: SocketSession | undefined;
}

export type EditorServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  SocketData
>;
export type EditorSocket = Socket<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  SocketData
>;

/**
 * socket.io on the HTTP server's port. Every connection must present our protocol version
 * and, optionally, a bearer token; a bad token is refused rather than downgraded to guest.
 * Every event then passes the admission gate (catalogue names only, a rate per connection)
 * on its way to its handler in `events`.
 */
export function attachRealtime(
  httpServer: HttpServer,
  auth: AuthService,
  /** Every feature's event handlers: the only thing an admitted event reaches. */
  events: SocketEvents,
  /** socket.io's adapter: the Redis one in a cluster, so room emits reach every node. */
  adapter?: ServerOptions["adapter"],
) {
  // msgpack carries a binary Yjs message in the same frame as its event, not as an attachment.
  const io: EditorServer = new Server(httpServer, {
    path: "/socket.io",
    maxHttpBufferSize: LIMITS.socketMessageBytes,
    serveClient: false,
    parser: msgpackParser,
    ...(adapter ? { adapter } : {}),
  });
  io.use(async (socket, next) => {
    const handshake = HandshakeSchema.safeParse(socket.handshake.auth);
    if (!handshake.success) return next(new Error(CONNECT_ERRORS.badHandshake));
    if (handshake.data.protocolVersion !== PROTOCOL_VERSION) {
      return next(new Error(CONNECT_ERRORS.protocolMismatch));
    }
    if (!handshake.data.token) {
      socket.data.identity = { kind: "guest", id: guestId(handshake.data.guestSecret), name: "Anonymous" };
      return next();
    }
    try {
      const user = await auth.authenticate(handshake.data.token);
      socket.data.identity = { kind: "user", id: user.id, name: user.name };
      next();
    } catch {
      next(new Error(CONNECT_ERRORS.invalidToken));
    }
  });
  const admit = createAdmission(events);
  const release = releaseHandshakeRequests(io);
  // One listener for every socket, which socket.io calls on it: not a closure per connection.
  const disconnected = function (this: EditorSocket) {
    events.disconnected(this);
  };
  io.on("connection", (socket) => {
    release(socket);
    trimHandshake(socket);
    admit(socket);
    socket.on("disconnect", disconnected);
    if (socket.data.identity.kind === "user") void socket.join(userRoom(socket.data.identity.id));
  });
  // A password change or a sign-out everywhere ends the connections its old tokens opened;
  // the browser that changed the password reconnects with its fresh token.
  auth.onTokensEnded((userId) => io.in(userRoom(userId)).disconnectSockets(true));
  return io;
}

/** The room of every connection a signed-in user opened. */
const userRoom = (userId: string) => `user:${userId}`;

/**
 * A guest's participant id: a one-way hash of the secret its browser keeps (so the id everyone
 * sees cannot be turned back into it), or a new random one for a guest without a secret.
 */
function guestId(secret: string | undefined): string {
  const id = secret ? createHash("sha256").update(secret).digest().subarray(0, 16) : randomBytes(16);
  return `guest-${id.toString("base64url")}`;
}
