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

    async append(sessionId: string, update: Uint8Array): Promise<void> {
      await db.query("INSERT INTO doc_updates (session_id, data) VALUES ($1, $2)", [sessionId, update]);
    },

    /** Replaces the snapshot and drops the updates it contains, atomically. */
    async compact(sessionId: string, snapshot: Uint8Array): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO doc_snapshots (session_id, data) VALUES ($1, $2)
           ON CONFLICT (session_id) DO UPDATE SET data = EXCLUDED.data, updated_at = now()`,
          [sessionId, snapshot],
        );
        await tx.query("DELETE FROM doc_updates WHERE session_id = $1", [sessionId]);
      });
    },
  };
}

export type DocRepo = ReturnType<typeof createDocRepo>;
