import type { Db } from "../../db/index";

/** SQL for a session's stored document: the snapshot and the updates logged after it. */
export function createDocRepo(db: Db) {
  return {
    async load(sessionId: string): Promise<{ snapshot: Uint8Array | undefined; updates: Uint8Array[] }> {
      const snapshots = await db.query<{ data: Uint8Array }>(
        "SELECT data FROM doc_snapshots WHERE session_id = $1",
        [sessionId],
      );
      const updates = await db.query<{ data: Uint8Array }>(
        "SELECT data FROM doc_updates WHERE session_id = $1 ORDER BY id",
        [sessionId],
      );
      return { snapshot: snapshots[0]?.data, updates: updates.map((u) => u.data) };
    },

    /** Appends updates of any sessions in one statement. */
    async appendMany(rows: readonly { sessionId: string; update: Uint8Array }[]): Promise<void> {
      if (rows.length === 0) return;
      const values = rows.map((_, i) => `($${2 * i + 1}, $${2 * i + 2})`).join(", ");
      await db.query(
        `INSERT INTO doc_updates (session_id, data) VALUES ${values}`,
        rows.flatMap((r) => [r.sessionId, r.update]),
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
          `INSERT INTO doc_snapshots (session_id, data) VALUES ($1, $2)
           ON CONFLICT (session_id) DO UPDATE SET data = EXCLUDED.data, updated_at = now()`,
          [sessionId, encode()],
        );
        if (last?.id) {
          await tx.query("DELETE FROM doc_updates WHERE session_id = $1 AND id <= $2", [sessionId, last.id]);
        }
      });
    },
  };
}

export type DocRepo = ReturnType<typeof createDocRepo>;
