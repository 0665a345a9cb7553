import type { Server as HttpServer } from "node:http";
import { CONNECT_ERRORS, HandshakeSchema, PROTOCOL_VERSION } from "@ensemble/protocol";
import { Server } from "socket.io";
import type { AuthService } from "../features/auth/index";

/** Who a socket acts as: a signed-in user or an anonymous guest. */
export type SocketIdentity =
  | { kind: "user"; id: string; name: string }
  | { kind: "guest"; name: "Anonymous" };

export interface SocketData {
  identity: SocketIdentity;
}

/**
 * socket.io on the HTTP server's port. Every connection must present our protocol version
 * and, optionally, a bearer token; a bad token is refused rather than downgraded to guest.
 */
export function attachRealtime(httpServer: HttpServer, auth: AuthService) {
  const io = new Server<Record<string, never>, Record<string, never>, Record<string, never>, SocketData>(
    httpServer,
    { path: "/socket.io", maxHttpBufferSize: 1_000_000, serveClient: false },
  );
  io.use(async (socket, next) => {
    const handshake = HandshakeSchema.safeParse(socket.handshake.auth);
    if (!handshake.success) return next(new Error(CONNECT_ERRORS.badHandshake));
    if (handshake.data.protocolVersion !== PROTOCOL_VERSION) {
      return next(new Error(CONNECT_ERRORS.protocolMismatch));
    }
    if (!handshake.data.token) {
      socket.data.identity = { kind: "guest", name: "Anonymous" };
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
  return io;
}
