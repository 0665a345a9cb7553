import { EventEmitter } from "node:events";
import type { IncomingMessage } from "node:http";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { type Ack, type Joined, PROTOCOL_VERSION } from "@ensemble/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSession, socketClient, startTestServer, type TestServer } from "../../test/harness";
import type { EditorSocket } from "./socket";

// A full collection on demand: whether anything still holds the request is what is asked.
setFlagsFromString("--expose-gc");
const collectGarbage: unknown = runInNewContext("gc");

/** Resolves once the turn ends (a WeakRef holds its target until then), then collects garbage. */
async function collect() {
  await new Promise((resolve) => setImmediate(resolve));
  if (typeof collectGarbage !== "function") throw new Error("no gc");
  collectGarbage();
}

describe("releaseHandshakeRequests", () => {
  let server: TestServer;
  /** The response engine.io made for each upgrade's middlewares (a middleware after ours). */
  const responses: WeakRef<object>[] = [];
  /** When set, that middleware listens to each response's `close`, as pino-http would. */
  let onResponseClose: (() => void) | undefined;
  beforeAll(async () => {
    server = await startTestServer("postgres");
    server.app.io.engine.use((_req: IncomingMessage, res: NodeJS.EventEmitter, next: () => void) => {
      responses.push(new WeakRef(res));
      if (onResponseClose) res.on("close", onResponseClose);
      next();
    });
  });
  afterAll(() => server.close());

  it("lets the handshake request and the upgrade's response go once the socket is connected; what the socket keeps of it stays", async () => {
    const { sessionId } = await buildSession(server.api, "handshake");
    const requests: WeakRef<IncomingMessage>[] = [];
    const conns: EditorSocket["conn"][] = [];
    const onConnection = (conn: EditorSocket["conn"]) => {
      requests.push(new WeakRef(conn.request));
      conns.push(conn);
    };
    server.app.io.engine.on("connection", onConnection);
    responses.length = 0;
    const client = socketClient(server.url, { protocolVersion: PROTOCOL_VERSION });
    try {
      const joined = await new Promise<Ack<Joined>>((resolve) =>
        client.emit("joinSession", sessionId, resolve),
      );
      expect(joined.ok).toBe(true);
      const [socket] = await server.app.io.local.fetchSockets();
      // What the handshake keeps: the address (a guest's rate key), not the request's headers,
      // query or url, nor the auth.
      expect(socket?.handshake.address).toMatch(/127\.0\.0\.1/);
      expect(socket?.handshake).toMatchObject({ headers: {}, query: {}, auth: {}, url: "", time: "" });
      expect(requests).toHaveLength(1);
      expect(responses).toHaveLength(1);
      await collect();
      expect(requests[0]?.deref()).toBeUndefined();
      // Its close listener on the raw socket held it (and its middlewares' state) for good.
      expect(responses[0]?.deref()).toBeUndefined();
      // engine.io's logging listener for an error during the upgrade went; the transport's stayed.
      const ws: unknown = conns[0] && Reflect.get(conns[0].transport, "socket");
      if (!(ws instanceof EventEmitter)) throw new Error("no WebSocket under the transport");
      expect(ws.listeners("error").map((listener) => listener.name)).not.toContain("onUpgradeError");
      expect(ws.listenerCount("error")).toBe(1);
    } finally {
      server.app.io.engine.off("connection", onConnection);
      client.disconnect();
    }
  });

  it("keeps the response of an upgrade whose middleware listens to it, and tells it the connection closed", async () => {
    let closes = 0;
    onResponseClose = () => {
      closes += 1;
    };
    responses.length = 0;
    const client = socketClient(server.url, { protocolVersion: PROTOCOL_VERSION });
    try {
      await new Promise<void>((resolve) => client.on("connect", resolve));
      await collect();
      expect(responses[0]?.deref()).toBeDefined();
      expect(closes).toBe(0);
      client.disconnect();
      await expect.poll(() => closes).toBe(1);
    } finally {
      onResponseClose = undefined;
      client.disconnect();
    }
  });

  it("keeps no signed-in user's token in the handshake, and still knows who the socket is", async () => {
    const { host, sessionId } = await buildSession(server.api, "token");
    const client = socketClient(server.url, { protocolVersion: PROTOCOL_VERSION, token: host.token });
    try {
      const joined = await new Promise<Ack<Joined>>((resolve) =>
        client.emit("joinSession", sessionId, resolve),
      );
      expect(joined.ok && joined.data.self.id).toBe(host.user.id);
      const sockets = await server.app.io.local.fetchSockets();
      const socket = sockets.find((s) => s.data.identity.id === host.user.id);
      expect(socket?.data.identity.kind).toBe("user");
      expect(socket?.handshake.auth).toEqual({});
      expect(JSON.stringify(socket?.handshake)).not.toContain(host.token);
    } finally {
      client.disconnect();
    }
  });
});
