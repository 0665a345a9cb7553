import type { TerminalEntry } from "@ensemble/protocol";
import type { Db } from "../../db/index";

/** SQL of the shared terminal's history. */
export function createTerminalRepo(db: Db, bounds: { entries: number; bytes: number }) {
  return {
    /** Appends entries and drops the oldest past the bounds, in one transaction; gives them their `seq`. */
    async append(sessionId: string, entries: TerminalEntry[]): Promise<TerminalEntry[]> {
      if (entries.length === 0) return [];
      return db.transaction(async (tx) => {
        const stored: TerminalEntry[] = [];
        for (const entry of entries) {
          const [row] = await tx.query<{ id: string | number }>(
            "INSERT INTO terminal_entries (session_id, type, content) VALUES ($1, $2, $3) RETURNING id",
            [sessionId, entry.type, entry.content],
          );
          stored.push({ type: entry.type, content: entry.content, seq: Number(row?.id) });
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
        return stored;
      });
    },

    async clear(sessionId: string): Promise<void> {
      await db.query("DELETE FROM terminal_entries WHERE session_id = $1", [sessionId]);
    },

    async history(sessionId: string): Promise<TerminalEntry[]> {
      const rows = await db.query<{ id: string | number; type: TerminalEntry["type"]; content: string }>(
        "SELECT id, type, content FROM terminal_entries WHERE session_id = $1 ORDER BY id",
        [sessionId],
      );
      return rows.map((row) => ({ type: row.type, content: row.content, seq: Number(row.id) }));
    },

    /** The stored entries with the time each was stored (what the replay shows). */
    async timed(sessionId: string): Promise<(TerminalEntry & { at: Date })[]> {
      const rows = await db.query<{
        id: string | number;
        type: TerminalEntry["type"];
        content: string;
        at: Date;
      }>(
        "SELECT id, type, content, created_at AS at FROM terminal_entries WHERE session_id = $1 ORDER BY id",
        [sessionId],
      );
      return rows.map((row) => ({
        type: row.type,
        content: row.content,
        seq: Number(row.id),
        at: new Date(row.at),
      }));
    },
  };
}

export type TerminalRepo = ReturnType<typeof createTerminalRepo>;
