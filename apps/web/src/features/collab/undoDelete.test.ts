import {
  CollabClient,
  decodeSyncPart,
  filesMap,
  isSyncPart,
  MAX_WHOLE_SYNC_BYTES,
  REMOTE_ORIGIN,
  readSyncMessage,
  SYNC_STEP1,
} from "@ensemble/collab";
import { WORKSPACE_LIMITS } from "@ensemble/protocol";
import { describe, expect, it } from "vitest";
import { Awareness } from "y-protocols/awareness";
import * as Y from "yjs";
import type { Deletion } from "./pendingFiles";
import { putBackTexts, RESTORE_ORIGIN, restoreRequest } from "./undoDelete";

const ID = "f-util000000000000";
const OTHER = "f-large00000000000";
const saved = "export const x = 1;\n";
const deletion: Deletion = {
  path: "lib",
  files: [{ id: ID, path: "lib/util.js", content: saved }],
  folders: ["lib/empty"],
};

/** Sends what `from` has and `to` lacks, as the sync would (tagged remote, as the client does). */
function sync(from: Y.Doc, to: Y.Doc) {
  Y.applyUpdate(to, Y.encodeStateAsUpdate(from, Y.encodeStateVector(to)), REMOTE_ORIGIN);
}

/** The server's restore as `Workspace.restore` makes it: the text cleared, the file listed again. */
function serverRestore(server: Y.Doc) {
  server.transact(() => {
    const text = server.getText(ID);
    text.delete(0, text.length);
    filesMap(server).set(ID, "lib/util.js");
  });
}

/** The server's delete as `Workspace.delete` makes it: the file unlisted, its text emptied. */
function serverDelete(server: Y.Doc) {
  server.transact(() => {
    filesMap(server).delete(ID);
    server.getText(ID).delete(0, saved.length);
  });
}

/** A session where `lib/util.js` holds `saved`, and the documents of `clients` synced with it. */
function written(clients: number) {
  const server = new Y.Doc();
  server.transact(() => {
    filesMap(server).set(ID, "lib/util.js");
    server.getText(ID).insert(0, saved);
  });
  const docs = Array.from({ length: clients }, () => new Y.Doc());
  for (const doc of docs) sync(server, doc);
  return { server, docs };
}

/**
 * A session where `lib/util.js` was written, then deleted (its text emptied by the server), and
 * someone else typed into it late: the undoer's document saw the delete, not the late edit.
 */
function deletedWithLateEdit() {
  const {
    server,
    docs: [undoer = new Y.Doc(), other = new Y.Doc()],
  } = written(2);
  serverDelete(server);
  sync(server, undoer);
  other.getText(ID).insert(0, "late ");
  sync(other, server);
  return { server, undoer, other };
}

describe("restoreRequest", () => {
  it("carries ids, paths, sizes and folders, never the text", () => {
    const request = restoreRequest({
      ...deletion,
      files: [...deletion.files, { id: "f-emoji00000000000", path: "lib/e.txt", content: "é😀" }],
    });
    expect(request).toEqual({
      path: "lib",
      files: [
        { id: ID, path: "lib/util.js", bytes: saved.length },
        { id: "f-emoji00000000000", path: "lib/e.txt", bytes: 6 },
      ],
      folders: ["lib/empty"],
    });
    expect(JSON.stringify(request)).not.toContain(saved);
  });
});

describe("putBackTexts", () => {
  it("survives the server's restore that reached the undoer's document first (online)", () => {
    const { server, undoer, other } = deletedWithLateEdit();
    serverRestore(server);
    sync(server, undoer);
    putBackTexts(undoer, deletion.files);
    sync(undoer, server);
    sync(server, other);
    for (const doc of [server, undoer, other]) expect(doc.getText(ID).toString()).toBe(saved);
  });

  it("survives the server's restore that reaches the undoer's document after it (offline replay)", () => {
    const { server, undoer, other } = deletedWithLateEdit();
    serverRestore(server);
    putBackTexts(undoer, deletion.files);
    expect(undoer.getText(ID).toString()).toBe(saved);
    // The undoer's document syncs only now: the server's clearing arrives after the text.
    sync(server, undoer);
    sync(undoer, server);
    sync(server, other);
    for (const doc of [server, undoer, other]) expect(doc.getText(ID).toString()).toBe(saved);
  });

  it("replaces a text the undoer still holds (a delete replayed from the same queue): no double", () => {
    const {
      server,
      docs: [undoer = new Y.Doc()],
    } = written(1);
    // The delete and the restore were both replayed: the undoer's document saw neither yet.
    serverDelete(server);
    serverRestore(server);
    putBackTexts(undoer, deletion.files);
    sync(server, undoer);
    sync(undoer, server);
    expect(server.getText(ID).toString()).toBe(saved);
    expect(undoer.getText(ID).toString()).toBe(saved);
  });

  it("sends each file's text as its own update, a large one in parts under the socket's cap", () => {
    const doc = new Y.Doc();
    const sent: Uint8Array[] = [];
    const client = new CollabClient(doc, new Awareness(doc), {
      sendSync: (message) => sent.push(message),
      sendAwareness: () => {},
    });
    client.connected();
    sent.length = 0;
    const origins: unknown[] = [];
    doc.on("update", (_update: Uint8Array, origin: unknown) => origins.push(origin));
    const large = "x".repeat(WORKSPACE_LIMITS.maxFileBytes);
    putBackTexts(doc, [...deletion.files, { id: OTHER, path: "lib/large.txt", content: large }]);
    expect(origins).toEqual([RESTORE_ORIGIN, RESTORE_ORIGIN]);
    expect(sent.every((message) => message.byteLength <= MAX_WHOLE_SYNC_BYTES)).toBe(true);
    // The small file's update whole, then the large one's parts, joined as the server does.
    const [small, ...parts] = sent;
    const received = new Y.Doc();
    Y.applyUpdate(received, readUpdate(small));
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.every(isSyncPart)).toBe(true);
    const whole = new Uint8Array(decodeSyncPart(parts[0] as Uint8Array).total);
    let at = 0;
    for (const part of parts) {
      const { chunk } = decodeSyncPart(part);
      whole.set(chunk, at);
      at += chunk.byteLength;
    }
    Y.applyUpdate(received, readUpdate(whole));
    expect(received.getText(ID).toString()).toBe(saved);
    expect(received.getText(OTHER).toString()).toBe(large);
    client.destroy();
  });
});

/** The update a whole sync message carries. */
function readUpdate(message: Uint8Array | undefined): Uint8Array {
  if (!message) throw new Error("no message");
  const parsed = readSyncMessage(message);
  if (parsed.type === SYNC_STEP1) throw new Error("not an update");
  return parsed.update;
}
