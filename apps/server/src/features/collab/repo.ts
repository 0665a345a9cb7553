import type { Db } from "../../db/index";

/**
 * Binary columns travel as base64 text (`encode`/`decode` in SQL, `Buffer` here): PGlite
 * parses a bytea value's hex text in JavaScript, 25× slower than this for a 1 MB snapshot
 * (62 ms against 2.5 ms; a 200-file workspace's first join waited on it).
 */
const fromBase64 = (text: string): Uint8Array => Buffer.from(text, "base64");
const toBase64 = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");

/** SQL for a session's stored document: the snapshot and the updates logged after it. */
export function createDocRepo(db: Db) {
  return {
    async load(sessionId: string): Promise<{ snapshot: Uint8Array | undefined; updates: Uint8Array[] }> {
      const snapshots = await db.query<{ data: string }>(
        "SELECT encode(data, 'base64') AS data FROM doc_snapshots WHERE session_id = $1",
        [sessionId],
      );
      const updates = await db.query<{ data: string }>(
        "SELECT encode(data, 'base64') AS data FROM doc_updates WHERE session_id = $1 ORDER BY id",
        [sessionId],
      );
      const snapshot = snapshots[0]?.data;
      return {
        snapshot: snapshot === undefined ? undefined : fromBase64(snapshot),
        updates: updates.map((u) => fromBase64(u.data)),
      };
    },

    /** Appends updates of any sessions in one statement. */
    async appendMany(rows: readonly { sessionId: string; update: Uint8Array }[]): Promise<void> {
      if (rows.length === 0) return;
      const values = rows.map((_, i) => `($${2 * i + 1}, decode($${2 * i + 2}, 'base64'))`).join(", ");
      await db.query(
        `INSERT INTO doc_updates (session_id, data) VALUES ${values}`,
        rows.flatMap((r) => [r.sessionId, toBase64(r.update)]),
      );
    },

    /**
     * Writes a snapshot and drops the logged updates it is known to contain: those stored
     * before `encode` ran (every update is applied to the document before it is stored).
     * A row stored meanwhile stays; applying an update twice is harmless in Yjs.
     */
    async compact(sessionId: string, encode: () => Uint8Array): Promise<void> {
      await db.transaction(async (tx) => {
        const [last] = await tx.query<{ id: string | null }>(
          "SELECT max(id)::text AS id FROM doc_updates WHERE session_id = $1",
          [sessionId],
        );
        await tx.query(
          `INSERT INTO doc_snapshots (session_id, data) VALUES ($1, decode($2, 'base64'))
           ON CONFLICT (session_id) DO UPDATE SET data = EXCLUDED.data, updated_at = now()`,
          [sessionId, toBase64(encode())],
        );
        if (last?.id) {
          await tx.query("DELETE FROM doc_updates WHERE session_id = $1 AND id <= $2", [sessionId, last.id]);
        }
      });
    },
  };
}

export type DocRepo = ReturnType<typeof createDocRepo>;
