import { fileText, listWorkspace } from "@ensemble/collab";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as Y from "yjs";
import { DATABASES, openTestDbBefore } from "../../../test/harness";
import { migrate } from "../../db/migrate";
import { documentAt } from "./history";
import { createReplayRepo } from "./repo";

const HISTORY = "011_history.sql";

const textOf = (doc: Y.Doc) => {
  const [file] = listWorkspace(doc).files;
  return file ? fileText(doc, file.id).toString() : undefined;
};

describe.each(DATABASES)("migration 011 (history) on %s", (kind) => {
  let opened: Awaited<ReturnType<typeof openTestDbBefore>>;
  const sessionId = "s-before-history";
  const doc = new Y.Doc();
  let snapshotText = "";

  beforeAll(async () => {
    opened = await openTestDbBefore(kind, HISTORY);
    const { db } = opened;
    const [user] = await db.query<{ id: string }>(
      "INSERT INTO users (name, email, password_hash) VALUES ('old', 'old@x.test', NULL) RETURNING id",
    );
    await db.query("INSERT INTO sessions (id, title, host_id) VALUES ($1, 'old', $2)", [sessionId, user?.id]);
    // A session stored the old way: a snapshot, then two updates logged after it.
    doc.getMap<string>("files").set("f1", "src/main.js");
    doc.getText("f1").insert(0, "snapshot text");
    snapshotText = doc.getText("f1").toString();
    await db.query("INSERT INTO doc_snapshots (session_id, data) VALUES ($1, $2)", [
      sessionId,
      Buffer.from(Y.encodeStateAsUpdate(doc)),
    ]);
    for (const extra of [" one", " two"]) {
      const before = Y.encodeStateVector(doc);
      doc.getText("f1").insert(doc.getText("f1").length, extra);
      await db.query("INSERT INTO doc_updates (session_id, data) VALUES ($1, $2)", [
        sessionId,
        Buffer.from(Y.encodeStateAsUpdate(doc, before)),
      ]);
    }
    await migrate(db);
  });
  afterAll(async () => {
    await opened.drop();
  });

  it("starts an existing session's history at its snapshot, with its logged updates after it", async () => {
    const repo = createReplayRepo(opened.db);
    const rows = await opened.db.query<{ id: string; author: string | null }>(
      "SELECT id::text, author FROM doc_history WHERE session_id = $1 ORDER BY id",
      [sessionId],
    );
    expect(rows.map((r) => r.author)).toEqual([null, null]);
    const [first, second] = rows.map((r) => Number(r.id));
    if (first === undefined || second === undefined) throw new Error("no history rows");
    // Before the first logged update: the snapshot (an uncompressed checkpoint); then each update.
    const atSnapshot = await documentAt(repo, sessionId, first - 1);
    expect(textOf(atSnapshot.doc)).toBe(snapshotText);
    expect(textOf((await documentAt(repo, sessionId, first)).doc)).toBe("snapshot text one");
    expect(textOf((await documentAt(repo, sessionId, second)).doc)).toBe("snapshot text one two");
    // A checkpoint stored now is compressed, and reads back the same.
    await repo.saveCheckpoint(sessionId, {
      upto: second,
      at: new Date(),
      data: Y.encodeStateAsUpdate(doc),
      authors: {},
    });
    const stored = await repo.checkpoint(sessionId, second);
    expect(stored?.upto).toBe(second);
    const reread = new Y.Doc();
    Y.applyUpdate(reread, stored?.data ?? new Uint8Array());
    expect(textOf(reread)).toBe("snapshot text one two");
  });
});
