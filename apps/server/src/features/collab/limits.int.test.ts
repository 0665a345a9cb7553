import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editorPool, waitFor } from "../../../test/collabClient";
import { buildSession, startTestServer, type TestServer } from "../../../test/harness";

describe("a session document's size", () => {
  let server: TestServer;
  const editors = editorPool(() => server.url);
  beforeAll(async () => {
    server = await startTestServer("postgres");
  });
  afterAll(async () => {
    await editors.closeAll();
    await server.close();
  });

  /** Bytes a session takes in the database: its snapshot and its update log. */
  async function storedBytes(sessionId: string): Promise<number> {
    const [row] = await server.db.query<{ n: number }>(
      `SELECT (SELECT coalesce(sum(octet_length(data)), 0) FROM doc_updates WHERE session_id = $1)
            + (SELECT coalesce(sum(octet_length(data)), 0) FROM doc_snapshots WHERE session_id = $1) AS n`,
      [sessionId],
    );
    return Number(row?.n);
  }

  it("does not keep text typed and deleted again: the log, and what a joiner gets, stay small", async () => {
    const { host: hostUser, sessionId } = await buildSession(server.api, "tombstones");
    const host = await editors.open(hostUser.token);
    await host.join(sessionId);
    const guest = await editors.open();
    await guest.join(sessionId);
    await waitFor(() => guest.client.synced);
    const text = guest.text();
    // 3.2 MB sent, in 16 messages, none of it kept.
    for (let i = 0; i < 8; i++) {
      guest.file().insert(0, "b".repeat(400_000));
      await waitFor(() => guest.client.synced);
      guest.file().delete(0, 400_000);
      await waitFor(() => guest.client.synced);
    }
    // Its leave's ack comes once the server has applied all it sent; the host keeps the room loaded.
    await new Promise((resolve) => guest.socket.emit("leaveSession", sessionId, resolve));
    // Well before the 10 s idle compaction, what was stored is folded by its size.
    const room = server.app.collab.rooms.loaded(sessionId);
    let stored = await storedBytes(sessionId);
    for (const started = Date.now(); Date.now() - started < 3000; ) {
      if (stored < 1_500_000 && (room?.bytes ?? 0) < 1_500_000) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
      stored = await storedBytes(sessionId);
    }
    expect(stored).toBeLessThan(1_500_000);
    expect(room?.bytes).toBeLessThan(1_500_000);
    const joiner = await editors.open();
    let received = 0;
    joiner.socket.on("yjsSync", (m: Uint8Array) => {
      received += m.byteLength;
    });
    await joiner.join(sessionId);
    await waitFor(() => joiner.client.synced);
    expect(joiner.text()).toBe(text);
    expect(received).toBeLessThan(1_500_000);
  });
});
