import { EventEmitter } from "node:events";
import { type IncomingMessage, ServerResponse } from "node:http";
import { Socket as NetSocket } from "node:net";
import type { EditorServer, EditorSocket } from "./socket";

/** The response engine.io made for an upgrade's middlewares, and its listener on the raw socket. */
interface UpgradeResponse {
  response: EventEmitter;
  /** The TCP socket the upgrade came on. */
  raw: NetSocket;
  /** What the response's constructor added to `raw`'s close listeners: it re-emits `close` on it. */
  forward: ((...args: unknown[]) => void) | undefined;
}

/** The source of engine.io's `WebSocketResponse` close forwarder (`socket.once("close", …)`). */
const FORWARD_SOURCE = '()=>this.emit("close")';

/**
 * Lets each connection's handshake request go once socket.io has copied what it keeps of it into
 * `socket.handshake` (headers, query, url, address): engine.io holds it for the connection's
 * life otherwise, as `conn.request` and through the response object it makes for an upgrade's
 * middlewares, whose `close` listener stays on the raw socket. That listener goes too, with the
 * response it holds, when nothing listens to the response (it only re-emits the socket's
 * `close` on it), and so does engine.io's debug-only listener for an error before the upgrade.
 * About 1.8 kB a client that nothing reads again (issue 32: 1.04 kB the request, 0.8 kB the
 * rest): nothing of ours reads `socket.request`, which is undefined from then on, as socket.io
 * allows (a WebTransport connection has none). A connection that began on long-polling still
 * keeps its upgrade's request (browsers try the WebSocket first).
 */
export function releaseHandshakeRequests(io: EditorServer): (socket: EditorSocket) => void {
  const responses = new WeakMap<IncomingMessage, UpgradeResponse>();
  io.engine.use((req: IncomingMessage, res: object, next: () => void) => {
    // A real ServerResponse (polling) ends with its request; an upgrade's stays.
    const raw: unknown = Reflect.get(res, "socket");
    if (!(res instanceof ServerResponse) && raw instanceof NetSocket && res instanceof EventEmitter) {
      // The response's constructor added its forwarder last, just before the middlewares ran
      // (ours is the first): recognised by its source too, so another listener is never taken.
      const forward = raw.listeners("close").at(-1) as ((...args: unknown[]) => void) | undefined;
      const isForward =
        typeof forward === "function" && String(forward).replace(/\s/g, "") === FORWARD_SOURCE;
      responses.set(req, { response: res, raw, forward: isForward ? forward : undefined });
    }
    next();
  });
  return (socket) => {
    const { conn } = socket;
    const upgrade = responses.get(conn.request);
    if (upgrade) {
      Reflect.set(upgrade.response, "req", undefined);
      if (upgrade.forward && upgrade.response.listenerCount("close") === 0)
        upgrade.raw.removeListener("close", upgrade.forward);
    }
    Reflect.set(conn, "request", undefined);
    // engine.io's listener for an error before the upgrade completed only logs (to `debug`); the
    // transport's own error listener stays.
    const ws: unknown = Reflect.get(conn.transport, "socket");
    if (ws instanceof EventEmitter) {
      const early = ws.listeners("error").find((listener) => listener.name === "onUpgradeError");
      if (early && ws.listenerCount("error") > 1) ws.removeListener("error", early as () => void);
    }
  };
}

/** What an admitted socket's handshake keeps of the client's request: nothing is read there. */
const NOTHING = Object.freeze({});

/**
 * Empties what socket.io keeps of each socket's handshake but its `address` (a guest's rate
 * key, realtime/presence.ts) and its flags, once the socket is admitted: the headers (a
 * browser's cookies and user agent among them), the query, the url, the time as text and the
 * auth (its bearer token) are read only by the admission (realtime/socket.ts), yet socket.io
 * keeps them for the connection's life and sends them in every cluster `fetchSockets` answer.
 * About 0.5 kB a client in the idle scale test, more from a browser (issue 32).
 */
export function trimHandshake(socket: EditorSocket): void {
  const { handshake } = socket;
  handshake.headers = NOTHING;
  handshake.query = NOTHING;
  handshake.auth = NOTHING;
  handshake.url = "";
  handshake.time = "";
}
