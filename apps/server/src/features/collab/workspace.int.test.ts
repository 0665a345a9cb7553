import { listWorkspace } from "@ensemble/collab";
import { STARTER_CODE, WORKSPACE_MESSAGES } from "@ensemble/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as Y from "yjs";
import { editorPool, emitAck, waitFor } from "../../../test/collabClient";
import { buildSession, DATABASES, startTestServer, type TestServer } from "../../../test/harness";
import { createDocRepo } from "./repo";

describe.each(DATABASES)("workspace operations on %s", (kind) => {
  let server: TestServer;
  const editors = editorPool(() => server.url);
  const newSession = () => buildSession(server.api, "workspace");
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await editors.closeAll();
    await server.close();
  });

  /** Two participants of a fresh session, synced. */
  async function pair() {
    const { host, sessionId } = await newSession();
    const a = await editors.open(host.token);
    const b = await editors.open();
    await a.join(sessionId);
    await b.join(sessionId);
    await waitFor(() => a.client.synced && b.client.synced);
    const paths = (doc: Y.Doc) => listWorkspace(doc).files.map((f) => f.path);
    return { sessionId, a, b, paths };
  }

  it("creates, renames and deletes files and folders for everyone, stored before the ack", async () => {
    const { sessionId, a, b, paths } = await pair();
    const created = await a.request("createFile", {
      sessionId,
      path: "./src//lib/util.js",
      kind: "file",
      content: "module.exports = () => 42;\n",
    });
    expect(created).toEqual({ ok: true, data: { path: "src/lib/util.js" } });
    // The update reaches the sender before its ack.
    expect(a.text("src/lib/util.js")).toBe("module.exports = () => 42;\n");
    await waitFor(() => b.text("src/lib/util.js") !== "", 5000, "the new file at b");
    expect(await a.request("createFile", { sessionId, path: "docs", kind: "folder" })).toMatchObject({
      ok: true,
    });
    expect(await b.request("renamePath", { sessionId, from: "src/lib", to: "lib" })).toMatchObject({
      ok: true,
    });
    await waitFor(() => paths(a.doc).includes("lib/util.js"), 5000, "the move at a");
    expect(await b.request("deletePath", { sessionId, path: "lib" })).toMatchObject({ ok: true });
    await waitFor(() => !paths(a.doc).includes("lib/util.js"), 5000, "the delete at a");
    expect(listWorkspace(a.doc).folders).toEqual(["docs", "src", "src/components"]);
    // A late joiner, from storage after the room unloads, sees the same tree.
    await a.close();
    await b.close();
    await waitFor(() => !server.app.collab.rooms.isLoaded(sessionId), 5000, "unload");
    const late = await editors.open();
    await late.join(sessionId);
    await waitFor(() => late.client.synced);
    expect(listWorkspace(late.doc)).toMatchObject({
      files: [{ path: "src/main.js" }],
      folders: ["docs", "src", "src/components"],
    });
  });

  it("refuses bad paths, clashes and strangers with a clear error, changing nothing", async () => {
    const { sessionId, a, paths } = await pair();
    const before = Y.encodeStateVector(a.doc);
    const refusals = await Promise.all([
      a.request("createFile", { sessionId, path: "../escape.js", kind: "file" }),
      a.request("createFile", { sessionId, path: "/etc/passwd", kind: "file" }),
      a.request("createFile", { sessionId, path: "src/.git/hooks/pre-commit", kind: "file" }),
      a.request("createFile", { sessionId, path: "bad\u0000name", kind: "file" }),
      a.request("createFile", { sessionId, path: "SRC/MAIN.JS", kind: "file" }),
      a.request("renamePath", { sessionId, from: "src/missing.js", to: "x.js" }),
      emitAck(a.socket, "createFile", { sessionId, path: 42, kind: "file" }),
    ]);
    expect(refusals.map((r) => (r.ok ? "ok" : r.error.message))).toEqual([
      WORKSPACE_MESSAGES.dotDot,
      WORKSPACE_MESSAGES.absolutePath,
      WORKSPACE_MESSAGES.dotGit,
      WORKSPACE_MESSAGES.controlCharacter,
      WORKSPACE_MESSAGES.exists("SRC/MAIN.JS"),
      WORKSPACE_MESSAGES.notFound("src/missing.js"),
      expect.any(String),
    ]);
    const stranger = await editors.open();
    const notJoined = await stranger.request("deletePath", { sessionId, path: "src/main.js" });
    expect(notJoined).toMatchObject({ ok: false, error: { code: "not_joined" } });
    expect(paths(a.doc)).toEqual(["src/main.js"]);
    expect(Y.encodeStateVector(a.doc)).toEqual(before);
  });

  it("refuses a forged Yjs update that creates, renames or removes a file, whole", async () => {
    const { sessionId, a, b, paths } = await pair();
    const files = b.doc.getMap<string>("files");
    const mainId = [...files.keys()][0] ?? "";
    const main = b.file();
    // Each forged change travels with a legitimate keystroke: the whole update is refused.
    const forgeries: ((doc: Y.Doc) => void)[] = [
      () => files.set("f-forged", "evil.js"),
      () => files.set(mainId, "renamed.js"),
      () => files.delete(mainId),
    ];
    for (const forge of forgeries) {
      const refusalsBefore = b.received.get("socketError")?.length ?? 0;
      b.doc.transact(() => {
        main.insert(0, "with the forgery ");
        forge(b.doc);
      });
      await waitFor(() => (b.received.get("socketError")?.length ?? 0) > refusalsBefore, 5000, "refusal");
      expect(b.received.get("socketError")?.at(-1)).toMatchObject({
        event: "yjsSync",
        code: "update_refused",
      });
    }
    // Nothing of b's forged updates reached anyone, not even its keystrokes.
    const watcher = await editors.open();
    await watcher.join(sessionId);
    await waitFor(() => watcher.client.synced);
    for (const doc of [a.doc, watcher.doc]) expect(paths(doc)).toEqual(["src/main.js"]);
    expect(a.text()).toBe(STARTER_CODE.javascript);
    expect(watcher.text()).toBe(STARTER_CODE.javascript);
  });

  it("refuses updates that push a file past 1 MiB", async () => {
    const { a, b } = await pair();
    const chunk = "z".repeat(400 * 1024);
    b.file().insert(0, chunk);
    b.file().insert(0, chunk);
    await waitFor(
      () => a.text().length === 2 * chunk.length + STARTER_CODE.javascript.length,
      10_000,
      "800 KiB",
    );
    b.file().insert(0, chunk);
    await waitFor(() => (b.received.get("socketError")?.length ?? 0) > 0, 5000, "refusal");
    expect(b.received.get("socketError")?.[0]).toMatchObject({
      code: "update_refused",
      message: WORKSPACE_MESSAGES.fileTooLarge,
    });
    expect(a.text().length).toBe(2 * chunk.length + STARTER_CODE.javascript.length);
  });

  it("opens a session stored by the previous version with every character kept", async () => {
    const { sessionId } = await newSession();
    // What the previous version stored: root texts main.js and main.py, edits in the log.
    const legacy = new Y.Doc();
    legacy.getText("main.js").insert(0, STARTER_CODE.javascript);
    legacy.getText("main.py").insert(0, STARTER_CODE.python);
    const repo = createDocRepo(server.db);
    // Its snapshot has the format of then (0), which tells the load to check the workspace.
    await server.db.query("INSERT INTO doc_snapshots (session_id, data) VALUES ($1, $2)", [
      sessionId,
      Buffer.from(Y.encodeStateAsUpdate(legacy)),
    ]);
    const before = Y.encodeStateVector(legacy);
    legacy.getText("main.js").insert(0, "// typed last week\n");
    await repo.appendMany([{ sessionId, update: Y.encodeStateAsUpdate(legacy, before) }]);
    const reader = await editors.open();
    await reader.join(sessionId);
    await waitFor(() => reader.client.synced);
    expect(listWorkspace(reader.doc).files.map((f) => f.path)).toEqual(["src/main.js", "src/main.py"]);
    expect(reader.text("src/main.js")).toBe(`// typed last week\n${STARTER_CODE.javascript}`);
    expect(reader.text("src/main.py")).toBe(STARTER_CODE.python);
    // And it edits on as before.
    reader.file("src/main.py").insert(0, "# still editable\n");
    const other = await editors.open();
    await other.join(sessionId);
    await waitFor(
      () => other.text("src/main.py").startsWith("# still editable"),
      5000,
      "edit after migration",
    );
  });
});
