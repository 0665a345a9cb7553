import { CollabClient, fileIdAt } from "@ensemble/collab";
import { LANGUAGE_MAIN_FILES } from "@ensemble/protocol";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { Awareness } from "y-protocols/awareness";
import * as Y from "yjs";
import { editorPool, waitFor } from "../../../test/collabClient";
import { buildSession, DATABASES, startTestServer, type TestServer, useTestDb } from "../../../test/harness";
import type { Db } from "../../db/index";
import { createLogger } from "../../logger";
import { COMPACTION } from "./docWriter";
import { createDocRepo } from "./repo";
import type { RoomConnection } from "./room";
import { RoomRegistry } from "./rooms";

const MAIN = LANGUAGE_MAIN_FILES.javascript;

/** The stored document of a session (snapshot, then the log), as a load reads it. */
async function storedText(db: Db, sessionId: string): Promise<string> {
  const { snapshot, updates } = await createDocRepo(db).load(sessionId);
  const doc = new Y.Doc();
  for (const update of snapshot ? [snapshot, ...updates] : updates) Y.applyUpdate(doc, update);
  return doc.getText(fileIdAt(doc, MAIN) ?? "missing").toString();
}

async function logRows(db: Db, sessionId: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM doc_updates WHERE session_id = $1",
    [sessionId],
  );
  return row?.n ?? 0;
}

describe.each(DATABASES)("a session loaded from its snapshot on %s", (kind) => {
  let server: TestServer;
  const editors = editorPool(() => server.url);
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await editors.closeAll();
    await server.close();
  });

  it("gives late clients the exact text, and edits after the load converge and are stored", async () => {
    const { host, sessionId } = await buildSession(server.api, "cold");
    const author = await editors.open(host.token);
    await author.join(sessionId);
    await waitFor(() => author.client.synced);
    for (let i = 0; i < 200; i++) {
      const text = author.file();
      text.insert((i * 13) % (text.length + 1), `t${i} `);
      if (i % 4 === 0) text.delete(i % text.length, 3);
    }
    const typed = author.text();
    await author.close();
    // The last one out unloads the session: one current snapshot, nothing in the log.
    const stored = await createDocRepo(server.db).load(sessionId);
    expect(stored.stateVector).toBeDefined();
    expect(stored.summary).toBeDefined();
    expect(stored.updates).toEqual([]);

    const [b, c] = [await editors.open(), await editors.open()];
    for (const e of [b, c]) await e.join(sessionId);
    await waitFor(() => b.client.synced && c.client.synced);
    expect(b.text()).toBe(typed);
    expect(c.text()).toBe(typed);
    b.file().insert(0, "// b\n");
    c.file().insert(c.file().length, "\n// c");
    await waitFor(() => b.text() === c.text() && b.text().includes("// c") && c.text().includes("// b"));
    const edited = b.text();
    expect(edited).toBe(`// b\n${typed}\n// c`);
    await b.close();
    await c.close();
    expect(await storedText(server.db, sessionId)).toBe(edited);

    const late = await editors.open();
    await late.join(sessionId);
    await waitFor(() => late.client.synced);
    expect(late.text()).toBe(edited);
  });
});

describe.each(DATABASES)("idle compaction on %s", (kind) => {
  const testDb = useTestDb(kind);

  it("folds the log into a snapshot after a quiet spell, keeping an update that came during it", async () => {
    const db = testDb();
    const sessionId = `idle-${kind}-${Date.now()}`;
    await db.query("INSERT INTO sessions (id, title) VALUES ($1, 'idle')", [sessionId]);
    const repo = createDocRepo(db);
    const typedRows = 30;
    let duringCompaction: (() => void) | undefined;
    // The compaction the update arrives in deletes only once that update's row is stored, so a
    // rule that dropped it would be caught; the next compaction waits until we have looked.
    let deletes: "free" | "after the update" | "held" = "free";
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const orderedDeletes: Db = {
      ...db,
      query: async (sql, params) => {
        if (sql.includes("DELETE FROM doc_updates") && deletes === "after the update") {
          deletes = "held";
          await waitForRows(db, sessionId, (n) => n > typedRows);
        } else if (sql.includes("DELETE FROM doc_updates") && deletes === "held") {
          await released;
        }
        return db.query(sql, params);
      },
    };
    const rooms = new RoomRegistry(
      {
        ...createDocRepo(orderedDeletes),
        compact: (id, encode, known) =>
          createDocRepo(orderedDeletes).compact(
            id,
            (foreign) => {
              const snapshot = encode(foreign);
              duringCompaction?.();
              return snapshot;
            },
            known,
          ),
      },
      () => ({ sync: () => {}, awareness: () => {} }),
      createLogger("silent"),
      { ...COMPACTION, every: 10_000, idleMs: 300 },
    );
    onTestFinished(() => rooms.closeAll());
    const room = await rooms.open(sessionId);
    const doc = new Y.Doc();
    const toServer: Uint8Array[] = [];
    const client = new CollabClient(doc, new Awareness(doc), {
      sendSync: (m) => toServer.push(m),
      sendAwareness: () => {},
    });
    const connection: RoomConnection = {
      id: "c",
      user: { id: "u", name: "U" },
      sendSync: (m) => client.receiveSync(m),
      sendAwareness: () => {},
    };
    const deliver = () => {
      for (let m = toServer.shift(); m; m = toServer.shift()) room.receiveSync(connection, m);
    };
    room.join(connection);
    client.connected();
    deliver();
    const text = () => doc.getText(fileIdAt(doc, MAIN) ?? "missing");
    for (let i = 0; i < typedRows; i++) {
      text().insert(0, `${i};`);
      deliver();
    }
    await waitForRows(db, sessionId, (n) => n === typedRows);

    duringCompaction = () => {
      duringCompaction = undefined;
      text().insert(0, "during;");
      deliver();
      deletes = "after the update";
    };
    // The first quiet spell folds the 30 rows; the row of the update during it stays.
    await waitForRows(db, sessionId, (n) => n < typedRows);
    expect(await logRows(db, sessionId)).toBe(1);
    expect(await storedText(db, sessionId)).toBe(text().toString());
    // The next one, after the quiet spell that update began, folds it too: an empty log.
    release();
    await waitForRows(db, sessionId, (n) => n === 0);
    const stored = await repo.load(sessionId);
    expect(stored.stateVector).toBeDefined();
    expect(stored.summary).toBeDefined();
    expect(await storedText(db, sessionId)).toBe(text().toString());
    expect(text().toString().startsWith("during;29;28;")).toBe(true);

    client.destroy();
  });
});

async function waitForRows(db: Db, sessionId: string, test: (rows: number) => boolean): Promise<void> {
  const started = Date.now();
  while (!test(await logRows(db, sessionId))) {
    if (Date.now() - started > 10_000) throw new Error("timed out waiting for the update log");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
