import type { TerminalEntry } from "@ensemble/protocol";
import type { Db } from "../../db/index";
import { DomainError } from "../../errors";
import { KeyedQueue } from "./keyedQueue";

/** SQL of the shared terminal's history. */
export function createTerminalRepo(db: Db, bounds: { entries: number; bytes: number }) {
  const queue = new KeyedQueue();

  async function store(sessionId: string, entries: TerminalEntry[]): Promise<TerminalEntry[]> {
    return db.transaction(async (tx) => {
      const [counter] = await tx.query<{ last: string | number }>(
        "UPDATE sessions SET terminal_seq = terminal_seq + $2 WHERE id = $1 RETURNING terminal_seq AS last",
        [sessionId, entries.length],
      );
      if (!counter) throw new DomainError("not_found", "Session not found");
      const first = Number(counter.last) - entries.length + 1;
      const stored = entries.map((entry, i) => ({
        type: entry.type,
        content: entry.content,
        seq: first + i,
      }));
      await tx.query(
        `INSERT INTO terminal_entries (session_id, seq, type, content)
         SELECT $1, seq, type, content FROM unnest($2::bigint[], $3::text[], $4::text[]) AS e (seq, type, content)`,
        [sessionId, stored.map((e) => e.seq), stored.map((e) => e.type), stored.map((e) => e.content)],
      );
      await tx.query(
        `DELETE FROM terminal_entries WHERE session_id = $1 AND seq IN (
           SELECT seq FROM (
             SELECT seq,
               row_number() OVER (ORDER BY seq DESC) AS position,
               sum(octet_length(content)) OVER (ORDER BY seq DESC) AS total
             FROM terminal_entries WHERE session_id = $1
           ) newest_first
           WHERE position > $2 OR total > $3
         )`,
        [sessionId, bounds.entries, bounds.bytes],
      );
      return stored;
    });
  }

  return {
    /**
     * Appends entries and drops the oldest past the bounds, in one transaction; gives them the
     * session's next numbers (`seq`). Appends of one session are serial: here, so that each
     * resolves (and is broadcast) before the next, and in the database, whose row lock on the
     * session's counter holds a second node's append until the first commits.
     */
    append(sessionId: string, entries: TerminalEntry[]): Promise<TerminalEntry[]> {
      if (entries.length === 0) return Promise.resolve([]);
      return queue.run(sessionId, () => store(sessionId, entries));
    },

    /**
     * Clears the session's terminal, after the appends before it: its entries leave the live
     * terminal but stay, marked with the moment of the clear, for the replay (within the
     * bounds); the numbers go on from where they were.
     */
    async clear(sessionId: string): Promise<void> {
      await queue.run(sessionId, () =>
        db.query(
          "UPDATE terminal_entries SET cleared_at = clock_timestamp() WHERE session_id = $1 AND cleared_at IS NULL",
          [sessionId],
        ),
      );
    },

    /** The live terminal: the entries since the last clear. */
    async history(sessionId: string): Promise<TerminalEntry[]> {
      const rows = await db.query<{ seq: string | number; type: TerminalEntry["type"]; content: string }>(
        "SELECT seq, type, content FROM terminal_entries WHERE session_id = $1 AND cleared_at IS NULL ORDER BY seq",
        [sessionId],
      );
      return rows.map((row) => ({ type: row.type, content: row.content, seq: Number(row.seq) }));
    },

    /**
     * Every stored entry with the time it was stored, cleared ones included, and each clear as
     * an entry of its own at its moment (what the replay shows).
     */
    async timed(sessionId: string): Promise<(TerminalEntry & { at: Date })[]> {
      const rows = await db.query<{
        seq: string | number;
        type: TerminalEntry["type"];
        content: string;
        at: Date;
        cleared_at: Date | null;
      }>(
        "SELECT seq, type, content, created_at AS at, cleared_at FROM terminal_entries WHERE session_id = $1 ORDER BY seq",
        [sessionId],
      );
      const entries: (TerminalEntry & { at: Date })[] = [];
      let clearedAt: number | null = null;
      for (const row of rows) {
        const cleared = row.cleared_at ? new Date(row.cleared_at).getTime() : null;
        // Entries are in order and a clear marks every entry before it: its moment comes once.
        if (clearedAt !== null && cleared !== clearedAt)
          entries.push({ type: "clear", content: "", at: new Date(clearedAt) });
        clearedAt = cleared;
        entries.push({ type: row.type, content: row.content, seq: Number(row.seq), at: new Date(row.at) });
      }
      if (clearedAt !== null) entries.push({ type: "clear", content: "", at: new Date(clearedAt) });
      return entries;
    },
  };
}

export type TerminalRepo = ReturnType<typeof createTerminalRepo>;
