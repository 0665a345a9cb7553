import type { TerminalEntry } from "@ensemble/protocol";
import type { Db } from "../../db/index";

/** SQL of the shared terminal's history. */
export function createTerminalRepo(db: Db, bounds: { entries: number; bytes: number }) {
  return {
    /** Appends entries and drops the oldest past the bounds, in one transaction. */
    async append(sessionId: string, entries: TerminalEntry[]): Promise<void> {
      if (entries.length === 0) return;
      await db.transaction(async (tx) => {
        for (const entry of entries) {
          await tx.query("INSERT INTO terminal_entries (session_id, type, content) VALUES ($1, $2, $3)", [
            sessionId,
            entry.type,
            entry.content,
          ]);
        }
        await tx.query(
          `DELETE FROM terminal_entries WHERE id IN (
             SELECT id FROM (
               SELECT id,
                 row_number() OVER (ORDER BY id DESC) AS position,
                 sum(octet_length(content)) OVER (ORDER BY id DESC) AS total
               FROM terminal_entries WHERE session_id = $1
             ) newest_first
             WHERE position > $2 OR total > $3
           )`,
          [sessionId, bounds.entries, bounds.bytes],
        );
      });
    },

    async clear(sessionId: string): Promise<void> {
      await db.query("DELETE FROM terminal_entries WHERE session_id = $1", [sessionId]);
    },

    async history(sessionId: string): Promise<TerminalEntry[]> {
      return db.query<TerminalEntry>(
        "SELECT type, content FROM terminal_entries WHERE session_id = $1 ORDER BY id",
        [sessionId],
      );
    },
  };
}

export type TerminalRepo = ReturnType<typeof createTerminalRepo>;
