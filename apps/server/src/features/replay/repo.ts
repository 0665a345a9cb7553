import { gunzipSync, gzipSync } from "node:zlib";
import type { Db } from "../../db/index";

/** As collab's repo: binary travels as base64 text, which PGlite decodes far faster than hex. */
const fromBase64 = (text: string): Uint8Array => Buffer.from(text, "base64");
const toBase64 = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");

/** One stored update of the history: its id (the session's order), author and time. */
export interface HistoryRow {
  id: number;
  author: string | null;
  at: Date;
  data: Uint8Array;
}

/** The document as of row `upto`, and which participant each Yjs client id was. */
export interface Checkpoint {
  upto: number;
  at: Date;
  data: Uint8Array;
  authors: Record<string, string | null>;
}

/** Where a moment falls in the history: the last row stored at or before it. */
export interface HistoryPosition {
  upto: number;
  at: Date;
}

/** The history's span and its rows counted per slice of it. */
export interface HistoryOverview {
  count: number;
  start: Date | null;
  end: Date | null;
  activity: number[];
}

/**
 * SQL of the replay's history (migration 011): doc_history, which collab's update log writes
 * in the same statement as doc_updates and never deletes, and the checkpoints built from it.
 */
export function createReplayRepo(db: Db) {
  return {
    // Ids are read as text (bigint): ORDER BY names the table's columns (h.id), not those outputs.

    /** The last row stored before `before` (exclusive), or undefined when there is none. */
    async position(sessionId: string, before: Date): Promise<HistoryPosition | undefined> {
      const [row] = await db.query<{ id: string; at: Date }>(
        `SELECT id::text, at FROM doc_history h WHERE session_id = $1 AND at < $2
         ORDER BY h.at DESC, h.id DESC LIMIT 1`,
        [sessionId, before.toISOString()],
      );
      return row && { upto: Number(row.id), at: new Date(row.at) };
    },

    /** The latest checkpoint at or before row `upto`. */
    async checkpoint(sessionId: string, upto: number): Promise<Checkpoint | undefined> {
      const [row] = await db.query<{
        upto: string;
        at: Date;
        data: string;
        is_compressed: boolean;
        authors: Record<string, string | null>;
      }>(
        `SELECT upto::text, at, encode(data, 'base64') AS data, is_compressed, authors FROM doc_history_checkpoints k
         WHERE session_id = $1 AND upto <= $2 ORDER BY k.upto DESC LIMIT 1`,
        [sessionId, upto],
      );
      return (
        row && {
          upto: Number(row.upto),
          at: new Date(row.at),
          data: row.is_compressed ? gunzipSync(fromBase64(row.data)) : fromBase64(row.data),
          authors: row.authors,
        }
      );
    },

    /** Up to `limit` rows after row `after`, up to row `upto`, in order. */
    async rows(sessionId: string, after: number, upto: number, limit: number): Promise<HistoryRow[]> {
      const rows = await db.query<{ id: string; author: string | null; at: Date; data: string }>(
        `SELECT id::text, author, at, encode(data, 'base64') AS data FROM doc_history h
         WHERE session_id = $1 AND id > $2 AND id <= $3 ORDER BY h.id LIMIT $4`,
        [sessionId, after, upto, limit],
      );
      return rows.map((r) => ({
        id: Number(r.id),
        author: r.author,
        at: new Date(r.at),
        data: fromBase64(r.data),
      }));
    },

    /**
     * Stores a checkpoint, gzip-compressed (a third of the size; 1-2 ms each way for 350 kB); one
     * another process stored first for the same row is kept.
     */
    async saveCheckpoint(sessionId: string, checkpoint: Checkpoint): Promise<void> {
      await db.query(
        `INSERT INTO doc_history_checkpoints (session_id, upto, at, data, authors)
         VALUES ($1, $2, $3, decode($4, 'base64'), $5) ON CONFLICT DO NOTHING`,
        [
          sessionId,
          checkpoint.upto,
          checkpoint.at.toISOString(),
          toBase64(gzipSync(checkpoint.data)),
          JSON.stringify(checkpoint.authors),
        ],
      );
    },

    /** How many rows, first and last time, and rows per each of `buckets` equal slices of that span. */
    async overview(sessionId: string, buckets: number): Promise<HistoryOverview> {
      const [span] = await db.query<{ count: string; start: Date | null; end: Date | null }>(
        `SELECT count(*)::text AS count, min(at) AS start, max(at) AS "end" FROM doc_history WHERE session_id = $1`,
        [sessionId],
      );
      const count = Number(span?.count ?? 0);
      const activity = new Array<number>(buckets).fill(0);
      if (!span?.start || !span.end || count === 0) return { count, start: null, end: null, activity };
      const start = new Date(span.start);
      const end = new Date(span.end);
      const slices = await db.query<{ bucket: number; count: string }>(
        `SELECT least(width_bucket(extract(epoch FROM at), extract(epoch FROM $2::timestamptz),
             extract(epoch FROM $3::timestamptz) + 0.001, $4), $4)::int AS bucket, count(*)::text AS count
         FROM doc_history WHERE session_id = $1 GROUP BY 1`,
        [sessionId, start.toISOString(), end.toISOString(), buckets],
      );
      for (const slice of slices) activity[slice.bucket - 1] = Number(slice.count);
      return { count, start, end, activity };
    },
  };
}

export type ReplayRepo = ReturnType<typeof createReplayRepo>;
