import { describe, expect, it } from "vitest";
import { DATABASES, useTestDb } from "../../../test/harness";
import type { Db } from "../../db/index";
import { createDocRepo } from "./repo";

const rowsOf = async (db: Db, table: "doc_updates" | "doc_history", sessionId: string) =>
  Number(
    (
      await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${table} WHERE session_id = $1`, [
        sessionId,
      ])
    )[0]?.n,
  );

describe.each(DATABASES)("the update log and the history on %s", (kind) => {
  const testDb = useTestDb(kind);

  it("stores updates of an existing session only, in the log and the history at once", async () => {
    const db = testDb();
    const repo = createDocRepo(db);
    const missing = `missing-${kind}-${Date.now()}`;
    const sessionId = `kept-${kind}-${Date.now()}`;
    await db.query("INSERT INTO sessions (id, title) VALUES ($1, 'kept')", [sessionId]);
    const updates = [1, 2, 3].map((n) => ({ sessionId, update: new Uint8Array([n, n]), author: `u${n}` }));
    // A missing session's update in the middle of a tick is left out; the rest is stored.
    const tick = [
      ...updates.slice(0, 1),
      { sessionId: missing, update: new Uint8Array([1]) },
      ...updates.slice(1),
    ];
    expect(await repo.appendMany(tick)).toBe(3);
    expect(await rowsOf(db, "doc_updates", missing)).toBe(0);
    expect(await rowsOf(db, "doc_history", missing)).toBe(0);
    const history = await db.query<{ author: string; data: string }>(
      "SELECT author, encode(data, 'hex') AS data FROM doc_history WHERE session_id = $1 ORDER BY id",
      [sessionId],
    );
    // In the order given, each with its author.
    expect(history).toEqual([
      { author: "u1", data: "0101" },
      { author: "u2", data: "0202" },
      { author: "u3", data: "0303" },
    ]);
    expect((await repo.load(sessionId)).updates.map((u) => [...u])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
  });

  it("deletes a session's log and history with the session", async () => {
    const db = testDb();
    const sessionId = `gone-${kind}-${Date.now()}`;
    await db.query("INSERT INTO sessions (id, title) VALUES ($1, 'gone')", [sessionId]);
    await createDocRepo(db).appendMany([{ sessionId, update: new Uint8Array([9]) }]);
    expect(await rowsOf(db, "doc_updates", sessionId)).toBe(1);
    expect(await rowsOf(db, "doc_history", sessionId)).toBe(1);
    await db.query("DELETE FROM sessions WHERE id = $1", [sessionId]);
    expect(await rowsOf(db, "doc_updates", sessionId)).toBe(0);
    expect(await rowsOf(db, "doc_history", sessionId)).toBe(0);
  });
});
