import { type IncomingMessage, ServerResponse } from "node:http";
import type { EditorServer, EditorSocket } from "./socket";

/**
 * Lets each connection's handshake request go once socket.io has copied what it keeps of it into
 * `socket.handshake` (headers, query, url, address): engine.io holds it for the connection's
 * life otherwise, as `conn.request` and through the response object it makes for an upgrade's
 * middlewares, whose `close` listener stays on the raw socket. About 1 kB a client that
 * nothing reads again (issue 32): nothing of ours reads `socket.request`, which is undefined
 * from then on, as socket.io allows (a WebTransport connection has none). A connection that
 * began on long-polling still keeps its upgrade's request (browsers try the WebSocket first).
 */
export function releaseHandshakeRequests(io: EditorServer): (socket: EditorSocket) => void {
  // The response engine.io made for each upgrade's middlewares (a real ServerResponse for polling).
  const responses = new WeakMap<IncomingMessage, object>();
  io.engine.use((req: IncomingMessage, res: object, next: () => void) => {
    if (!(res instanceof ServerResponse)) responses.set(req, res);
    next();
  });
  return (socket) => {
    const { conn } = socket;
    const response = responses.get(conn.request);
    if (response) Reflect.set(response, "req", undefined);
    Reflect.set(conn, "request", undefined);
  };
}
