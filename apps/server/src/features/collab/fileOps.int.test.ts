import { fileIdAt, listWorkspace } from "@ensemble/collab";
import { LIMITS, WORKSPACE_LIMITS, WORKSPACE_MESSAGES } from "@ensemble/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as Y from "yjs";
import { editorPool, emitAck, type TestEditor, waitFor } from "../../../test/collabClient";
import { DATABASES, startTestServer, type TestServer } from "../../../test/harness";

const refusals = (editor: TestEditor) =>
  (editor.received.get("socketError") ?? []) as { event: string; code: string; message: string }[];
const newId = () => `f-${Math.random().toString(36).slice(2, 10).padEnd(16, "x")}`;

/** A deleted file as the undoer's browser keeps it: its id, its path, its text. */
interface Deleted {
  id: string;
  path: string;
  content: string;
}

/** The restore's files as the browser asks for them: the size of each text, never the text. */
const restored = (files: readonly Deleted[]) =>
  files.map(({ id, path, content }) => ({ id, path, bytes: Buffer.byteLength(content) }));

/** What the browser does once the restore is accepted (`putBackTexts`): each text back as its own edit. */
function putBack(editor: TestEditor, files: readonly Deleted[]) {
  for (const { id, content } of files) {
    const text = editor.doc.getText(id);
    editor.doc.transact(() => {
      text.delete(0, text.length);
      text.insert(0, content);
    });
  }
}

/**
 * File operations made offline and undone: a create replayed with the browser's own file id
 * (its text typed meanwhile follows in the sync), and a delete undone under the files' ids.
 */
describe.each(DATABASES)("offline file operations and undo on %s", (kind) => {
  let server: TestServer;
  const editors = editorPool(() => server.url);
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await editors.closeAll();
    await server.close();
  });

  it("takes a file created offline under the browser's id, then the text typed in it", async () => {
    const { sessionId, host: a, guest: b } = await editors.hostAndGuest(server.api, "offline-create");
    const id = newId();
    // Offline: b's edits stay in its document until it syncs again.
    b.client.disconnected();
    b.doc.getText(id).insert(0, "typed while offline\n");
    expect(await b.request("createFile", { sessionId, path: "src/offline.js", kind: "file", id })).toEqual({
      ok: true,
      data: { path: "src/offline.js" },
    });
    // The same create again (its answer was lost) answers the same, and changes nothing.
    expect(await b.request("createFile", { sessionId, path: "src/offline.js", kind: "file", id })).toEqual({
      ok: true,
      data: { path: "src/offline.js" },
    });
    b.client.connected();
    await waitFor(() => a.text("src/offline.js") === "typed while offline\n", 5000, "the offline text at a");
    expect(fileIdAt(a.doc, "src/offline.js")).toBe(id);
    expect(refusals(b)).toEqual([]);
  });

  it("refuses an id that named anything, a bad id, and text for a file the server never made", async () => {
    const { sessionId, host: a, guest: b } = await editors.hostAndGuest(server.api, "offline-ids");
    const mainId = fileIdAt(a.doc, "src/main.js") ?? "";
    const id = newId();
    expect(await a.request("createFile", { sessionId, path: "one.js", kind: "file", id })).toMatchObject({
      ok: true,
    });
    const taken = { ok: false, error: { code: "conflict", message: WORKSPACE_MESSAGES.idTaken } };
    expect(await a.request("createFile", { sessionId, path: "two.js", kind: "file", id })).toEqual(taken);
    expect(await a.request("createFile", { sessionId, path: "main.js", kind: "file", id: mainId })).toEqual(
      taken,
    );
    const forgedId = await emitAck(a.socket, "createFile", {
      sessionId,
      path: "x.js",
      kind: "file",
      id: "main",
    });
    expect(forgedId).toMatchObject({ ok: false, error: { code: "invalid_payload" } });
    // Text in a root no create named: refused whole, as any forged update.
    const before = Y.encodeStateVector(a.doc);
    b.doc.getText(newId()).insert(0, "smuggled");
    await waitFor(() => refusals(b).length > 0, 5000, "the refusal");
    expect(refusals(b)[0]).toMatchObject({ event: "yjsSync", code: "update_refused" });
    expect(listWorkspace(a.doc).files.map((f) => f.path)).toEqual(["one.js", "src/main.js"]);
    expect(Y.encodeStateVector(a.doc)).toEqual(before);
  });

  it("undoes a delete: the files come back under their ids with their text, for everyone", async () => {
    const { sessionId, host: a, guest: b } = await editors.hostAndGuest(server.api, "undo-delete");
    await a.request("createFile", {
      sessionId,
      path: "lib/util.js",
      kind: "file",
      content: "export const x = 1;\n",
    });
    await a.request("createFile", { sessionId, path: "lib/deep/empty", kind: "folder" });
    await waitFor(() => b.text("lib/util.js") !== "", 5000, "the file at b");
    const utilId = fileIdAt(b.doc, "lib/util.js") ?? "";
    b.file("lib/util.js").insert(0, "// b's line\n");
    await waitFor(() => a.text("lib/util.js").startsWith("// b's line"), 5000, "b's line at a");
    const content = a.text("lib/util.js");
    expect(await a.request("deletePath", { sessionId, path: "lib" })).toMatchObject({ ok: true });
    await waitFor(() => fileIdAt(b.doc, "lib/util.js") === undefined, 5000, "the delete at b");

    const deleted = [{ id: utilId, path: "lib/util.js", content }];
    const restore = { sessionId, path: "lib", files: restored(deleted), folders: ["lib/deep/empty"] };
    // Checked first: a file outside the restored folder, an id that was never deleted, a
    // stranger; none changes anything.
    const mainId = fileIdAt(a.doc, "src/main.js") ?? "";
    const outside = await a.request("restorePath", {
      ...restore,
      files: [{ id: utilId, path: "x.js", bytes: 1 }],
    });
    expect(outside).toEqual({
      ok: false,
      error: { code: "invalid_payload", message: WORKSPACE_MESSAGES.outsideRestore },
    });
    for (const id of [mainId, newId()]) {
      expect(
        await a.request("restorePath", { ...restore, files: [{ id, path: "lib/util.js", bytes: 1 }] }),
      ).toEqual({
        ok: false,
        error: { code: "conflict", message: WORKSPACE_MESSAGES.notDeleted },
      });
    }
    const stranger = await editors.open();
    expect(await stranger.request("restorePath", restore)).toMatchObject({
      ok: false,
      error: { code: "not_joined" },
    });
    expect(listWorkspace(a.doc).files.map((f) => f.path)).toEqual(["src/main.js"]);

    expect(await a.request("restorePath", restore)).toEqual({ ok: true, data: { path: "lib" } });
    putBack(a, deleted);
    await waitFor(() => b.text("lib/util.js") === content, 5000, "the restored text at b");
    expect(fileIdAt(b.doc, "lib/util.js")).toBe(utilId);
    expect(listWorkspace(b.doc).folders).toEqual([
      "lib",
      "lib/deep",
      "lib/deep/empty",
      "src",
      "src/components",
    ]);
    // Its text lives on: an edit after the undo reaches everyone.
    b.file("lib/util.js").insert(0, "// after undo\n");
    await waitFor(
      () => a.text("lib/util.js").startsWith("// after undo\n// b's line"),
      5000,
      "the edit at a",
    );
    await waitFor(() => a.text("lib/util.js") === b.text("lib/util.js"), 5000, "a and b agreeing");
    // Twice (a replay whose answer was lost) answers as the first did and changes nothing; a
    // restore the workspace shows only in part is refused.
    const before = Y.encodeStateVector(a.doc);
    expect(await a.request("restorePath", restore)).toEqual({ ok: true, data: { path: "lib" } });
    expect(await a.request("restorePath", { ...restore, folders: ["lib/other"] })).toEqual({
      ok: false,
      error: { code: "conflict", message: WORKSPACE_MESSAGES.notDeleted },
    });
    expect(Y.encodeStateVector(a.doc)).toEqual(before);
    expect(a.text("lib/util.js")).toBe(b.text("lib/util.js"));
  });

  it("undoes the delete of a folder holding more text than one socket message: the texts follow as edits", async () => {
    const { sessionId, host: a, guest: b } = await editors.hostAndGuest(server.api, "undo-large");
    const { maxFileBytes } = WORKSPACE_LIMITS;
    // Two files of about 900 KiB (each fits one createFile), one at exactly the file limit
    // (typed: more than one socket message, it goes in parts).
    const near = (c: string) => `${c.repeat(99)}\n`.repeat(Math.floor((900 * 1024) / 100));
    for (const [path, content] of [
      ["big/one.txt", near("a")],
      ["big/two.txt", near("b")],
      ["big/full.txt", ""],
    ] as const) {
      expect(await a.request("createFile", { sessionId, path, kind: "file", content })).toMatchObject({
        ok: true,
      });
    }
    await waitFor(() => fileIdAt(a.doc, "big/full.txt") !== undefined, 5000, "the files at a");
    a.file("big/full.txt").insert(0, "é".repeat(maxFileBytes / 2));
    const paths = ["big/full.txt", "big/one.txt", "big/two.txt"];
    const deleted: Deleted[] = paths.map((path) => ({
      id: fileIdAt(a.doc, path) ?? "",
      path,
      content: a.text(path),
    }));
    await waitFor(() => deleted.every((f) => b.text(f.path) === f.content), 20_000, "the texts at b");
    expect(Buffer.byteLength(a.text("big/full.txt"))).toBe(maxFileBytes);
    expect(deleted.reduce((sum, f) => sum + Buffer.byteLength(f.content), 0)).toBeGreaterThan(
      2 * LIMITS.socketMessageBytes,
    );

    expect(await a.request("deletePath", { sessionId, path: "big" })).toMatchObject({ ok: true });
    await waitFor(() => fileIdAt(b.doc, "big/one.txt") === undefined, 5000, "the delete at b");
    const restore = { sessionId, path: "big", files: restored(deleted), folders: [] };
    expect(await a.request("restorePath", restore)).toEqual({ ok: true, data: { path: "big" } });
    putBack(a, deleted);
    await waitFor(
      () => deleted.every((f) => b.text(f.path) === f.content),
      30_000,
      "the restored texts at b",
    );
    for (const f of deleted) expect(fileIdAt(b.doc, f.path)).toBe(f.id);
    expect(listWorkspace(b.doc)).toEqual(listWorkspace(a.doc));
    expect(refusals(a)).toEqual([]);
    // A newcomer gets the same from the server's document.
    const c = await editors.open();
    await c.join(sessionId);
    await waitFor(() => c.client.synced, 10_000, "the newcomer's sync");
    for (const f of deleted) expect(c.text(f.path)).toBe(f.content);
  });

  it("refuses a forged restore, changing nothing: text sent along, a size past the limits", async () => {
    const { sessionId, host: a } = await editors.hostAndGuest(server.api, "undo-forged");
    const content = "export const x = 1;\n";
    await a.request("createFile", { sessionId, path: "lib/util.js", kind: "file", content });
    await waitFor(() => a.text("lib/util.js") === content, 5000, "the file at a");
    const id = fileIdAt(a.doc, "lib/util.js") ?? "";
    await a.request("deletePath", { sessionId, path: "lib" });
    await waitFor(() => fileIdAt(a.doc, "lib/util.js") === undefined, 5000, "the delete at a");
    const before = Y.encodeStateVector(a.doc);
    const file = { id, path: "lib/util.js", bytes: content.length };
    const forge = (files: unknown[]) =>
      emitAck(a.socket, "restorePath", { sessionId, path: "lib", files, folders: [] });
    // The payload of an older client, which expected the server to write the text.
    expect(await forge([{ ...file, content }])).toEqual({
      ok: false,
      error: { code: "invalid_payload", message: WORKSPACE_MESSAGES.restoreText },
    });
    expect(await forge([{ id, path: "lib/util.js", content }])).toMatchObject({
      ok: false,
      error: { code: "invalid_payload" },
    });
    expect(await forge([{ ...file, bytes: WORKSPACE_LIMITS.maxFileBytes + 1 }])).toEqual({
      ok: false,
      error: { code: "invalid_payload", message: WORKSPACE_MESSAGES.fileTooLarge },
    });
    for (const bytes of [-1, 1.5, "20"]) {
      expect(await forge([{ ...file, bytes }])).toMatchObject({
        ok: false,
        error: { code: "invalid_payload" },
      });
    }
    const tooMany = Array.from({ length: WORKSPACE_LIMITS.maxFiles + 1 }, (_, i) => ({
      ...file,
      path: `lib/${i}.js`,
    }));
    expect(await forge(tooMany)).toEqual({
      ok: false,
      error: { code: "invalid_payload", message: WORKSPACE_MESSAGES.tooManyFiles },
    });
    // Nothing changed: a change would have reached a before its refusal's answer.
    expect(Y.encodeStateVector(a.doc)).toEqual(before);
    expect(listWorkspace(a.doc).files.map((f) => f.path)).toEqual(["src/main.js"]);
    // The same restore, well formed, is taken.
    expect(await forge([file])).toEqual({ ok: true, data: { path: "lib" } });
  });

  it("refuses a restore onto a path someone took meanwhile", async () => {
    const { sessionId, host: a } = await editors.hostAndGuest(server.api, "undo-taken");
    const id = fileIdAt(a.doc, "src/main.js") ?? "";
    const content = a.text("src/main.js");
    await a.request("deletePath", { sessionId, path: "src/main.js" });
    await a.request("createFile", { sessionId, path: "src/main.js", kind: "file", content: "new" });
    const restore = {
      sessionId,
      path: "src/main.js",
      files: restored([{ id, path: "src/main.js", content }]),
      folders: [],
    };
    expect(await a.request("restorePath", restore)).toEqual({
      ok: false,
      error: { code: "conflict", message: WORKSPACE_MESSAGES.exists("src/main.js") },
    });
    expect(a.text("src/main.js")).toBe("new");
  });
});
