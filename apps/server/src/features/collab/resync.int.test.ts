import { fileIdAt } from "@ensemble/collab";
import { LIMITS, WORKSPACE_LIMITS } from "@ensemble/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editorPool, type TestEditor, waitFor } from "../../../test/collabClient";
import { buildSession, DATABASES, startTestServer, type TestServer } from "../../../test/harness";

const newId = () => `f-${Math.random().toString(36).slice(2, 10).padEnd(16, "x")}`;
const FILES = ["src/main.js", "src/notes.md", "src/offline.txt"] as const;
const textsOf = (editor: TestEditor) => FILES.map((path) => editor.text(path));

/**
 * Issue 31: a client that typed more offline than one socket message carries resyncs it
 * all. Its step 2 goes in parts, which the server joins and checks as one update.
 */
describe.each(DATABASES)("a resync larger than one message on %s", (kind) => {
  let server: TestServer;
  const editors = editorPool(() => server.url);
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await editors.closeAll();
    await server.close();
  });

  it("takes a live paste that fills a file to its limit, in parts", async () => {
    const { sessionId, host: a } = await editors.hostAndGuest(server.api, "large paste");
    const b = await editors.open(undefined, { lane: true });
    await b.join(sessionId);
    await waitFor(() => b.client.synced);
    b.file().insert(0, "p".repeat(WORKSPACE_LIMITS.maxFileBytes - b.file().length));
    await waitFor(() => a.text() === b.text(), 10_000, "the paste at a");
    expect(b.received.get("laneRefusal")).toBeUndefined();
  });

  it.each([
    ["the lane", true],
    ["socket.io", false],
  ])("takes over a megabyte typed offline across files, whole, over %s", async (_, lane) => {
    const { host, sessionId } = await buildSession(server.api, "large resync");
    const a = await editors.open(host.token);
    const b = await editors.open(undefined, { lane });
    await a.join(sessionId);
    await b.join(sessionId);
    await waitFor(() => a.client.synced && b.client.synced, 5000, "sync");
    expect(await b.request("createFile", { sessionId, path: "src/notes.md", kind: "file" })).toMatchObject({
      ok: true,
    });
    await waitFor(() => fileIdAt(b.doc, "src/notes.md") !== undefined);

    // Offline: b's edits stay in its document until it syncs again.
    b.client.disconnected();
    const near = WORKSPACE_LIMITS.maxFileBytes - 20_000;
    b.file().insert(b.file().length, "a".repeat(near - b.file().length - 400));
    b.file("src/notes.md").insert(0, "b".repeat(near));
    // Keystrokes apart: an item each.
    for (let i = 0; i < 400; i++) b.file().insert(i * 2, "k");
    // A file created offline, its create replayed before the sync (as the browser does).
    const id = newId();
    b.doc.getText(id).insert(0, "c".repeat(300_000));
    expect(
      await b.request("createFile", { sessionId, path: "src/offline.txt", kind: "file", id }),
    ).toMatchObject({ ok: true });
    // Over the lane, the create's update may come after its ack (which socket.io carries).
    await waitFor(() => fileIdAt(b.doc, "src/offline.txt") === id);
    const expected = textsOf(b);
    expect(expected.join("").length).toBeGreaterThan(2 * LIMITS.socketMessageBytes);

    b.client.connected();
    await waitFor(() => textsOf(a).join() === expected.join(), 20_000, "the offline text at a");
    expect(b.received.get("laneRefusal")).toBeUndefined();
    expect(b.events("socketError")).toEqual([]);
    // Nothing closed a connection on the way: b's lane (or socket) carried it all.
    expect(b.socket.connected).toBe(true);
    if (lane) expect(b.lane()?.open).toBe(true);
    expect(server.app.collab.assembling.bytes).toBe(0);

    // Stored: once everyone left, a newcomer loads it from the database.
    await a.close();
    await b.close();
    await waitFor(() => !server.app.collab.rooms.isLoaded(sessionId), 10_000, "unload");
    const c = await editors.open(undefined, { lane });
    await c.join(sessionId);
    await waitFor(() => c.client.synced, 10_000, "the newcomer's sync");
    expect(textsOf(c)).toEqual(expected);
  });
});
