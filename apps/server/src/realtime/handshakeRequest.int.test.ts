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

describe("releaseHandshakeRequests", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("postgres");
  });
  afterAll(() => server.close());

  it("lets the handshake request go once the socket is connected; what the socket keeps of it stays", async () => {
    const { sessionId } = await buildSession(server.api, "handshake");
    const requests: WeakRef<IncomingMessage>[] = [];
    const onConnection = (conn: EditorSocket["conn"]) => requests.push(new WeakRef(conn.request));
    server.app.io.engine.on("connection", onConnection);
    const client = socketClient(server.url, { protocolVersion: PROTOCOL_VERSION });
    try {
      const joined = await new Promise<Ack<Joined>>((resolve) =>
        client.emit("joinSession", sessionId, resolve),
      );
      expect(joined.ok).toBe(true);
      const [socket] = await server.app.io.local.fetchSockets();
      expect(socket?.handshake.auth).toEqual({ protocolVersion: PROTOCOL_VERSION });
      expect(socket?.handshake.address).toMatch(/127\.0\.0\.1/);
      expect(socket?.handshake.headers.host).toBe(new URL(server.url).host);
      expect(requests).toHaveLength(1);
      // A WeakRef holds its target until the turn it was made in ends.
      await new Promise((resolve) => setImmediate(resolve));
      if (typeof collectGarbage !== "function") throw new Error("no gc");
      collectGarbage();
      expect(requests[0]?.deref()).toBeUndefined();
    } finally {
      server.app.io.engine.off("connection", onConnection);
      client.disconnect();
    }
  });
});
