import { gunzipSync, gzipSync } from "node:zlib";
import type { Db } from "../../db/index";
import type { ClientAuthors } from "./authorship";
import { type HistoryEntry, type PackedChunk, unpackEntries } from "./chunks";

/** As collab's repo: binary travels as base64 text, which PGlite decodes far faster than hex. */
const fromBase64 = (text: string): Uint8Array => Buffer.from(text, "base64");
const toBase64 = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");

/** The document as of row `upto`, and which participant each Yjs client id was. */
export interface Checkpoint {
  upto: number;
  at: Date;
  data: Uint8Array;
  authors: Record<string, string | null>;
}

/** Where a moment falls in the history: the last update stored at or before it. */
export interface HistoryPosition {
  upto: number;
  at: Date;
}

/** A chunk as a seek reads it: `data` only when asked for (the seek needs its single updates). */
export interface StoredChunk {
  firstId: number;
  upto: number;
  clients: ClientAuthors;
  merged: Uint8Array;
  data: Uint8Array | null;
}

/** What the timeline is drawn from: each chunk's span and size, and the rows not yet folded. */
export interface HistorySummary {
  chunks: { startAt: number; endAt: number; edits: number }[];
  raw: { count: number; start: number | null; end: number | null };
  /** The participants (null: the server) whose updates the history holds. */
  authors: (string | null)[];
}

/**
 * SQL of the replay's history: doc_history (migration 011), which collab's update log writes in
 * the same statement as doc_updates; the chunks the compaction folds its settled rows into
 * (migration 022), and the checkpoints (keyframes) built from them.
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

    /** Up to `limit` rows not yet folded into chunks after row `after`, up to row `upto`, in order. */
    async rows(sessionId: string, after: number, upto: number, limit: number): Promise<HistoryEntry[]> {
      const rows = await db.query<{ id: string; author: string | null; at: Date; data: string }>(
        `SELECT id::text, author, at, encode(data, 'base64') AS data FROM doc_history h
         WHERE session_id = $1 AND id > $2 AND id <= $3 ORDER BY h.id LIMIT $4`,
        [sessionId, after, upto, limit],
      );
      return rows.map((r) => ({
        id: Number(r.id),
        author: r.author,
        at: new Date(r.at).getTime(),
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

    /** The last update of a chunk stored at or before `at` (ms), if a chunk holds one. */
    async chunkPosition(sessionId: string, at: number): Promise<HistoryPosition | undefined> {
      const [row] = await db.query<{ upto: string; end_at: Date; data: string | null }>(
        `SELECT upto::text, end_at, CASE WHEN end_at > $2 THEN encode(data, 'base64') END AS data
         FROM doc_history_chunks c WHERE session_id = $1 AND start_at <= $2 ORDER BY c.first_id DESC LIMIT 1`,
        [sessionId, new Date(at).toISOString()],
      );
      if (!row) return undefined;
      if (row.data === null) return { upto: Number(row.upto), at: new Date(row.end_at) };
      let found: HistoryPosition | undefined;
      for (const entry of unpackEntries(fromBase64(row.data)))
        if (entry.at <= at && (!found || entry.id > found.upto))
          found = { upto: entry.id, at: new Date(entry.at) };
      return found;
    },

    /**
     * The chunks holding updates after row `after` up to row `upto`, in order; `data` only for
     * those not wholly inside that range (a seek applies just some of their updates).
     */
    async chunks(sessionId: string, after: number, upto: number): Promise<StoredChunk[]> {
      const rows = await db.query<{
        first_id: string;
        upto: string;
        clients: ClientAuthors;
        merged: string;
        data: string | null;
      }>(
        `SELECT first_id::text, upto::text, clients, encode(merged, 'base64') AS merged,
           CASE WHEN first_id <= $2 OR upto > $3 THEN encode(data, 'base64') END AS data
         FROM doc_history_chunks c WHERE session_id = $1 AND upto > $2 AND first_id <= $3 ORDER BY c.first_id`,
        [sessionId, after, upto],
      );
      return rows.map((r) => ({
        firstId: Number(r.first_id),
        upto: Number(r.upto),
        clients: r.clients,
        merged: fromBase64(r.merged),
        data: r.data === null ? null : fromBase64(r.data),
      }));
    },

    /** Rows stored before `before`, oldest first, up to `limit`: what the compaction folds next. */
    async settled(sessionId: string, before: Date, limit: number): Promise<HistoryEntry[]> {
      const rows = await db.query<{ id: string; author: string | null; at: Date; data: string }>(
        `SELECT id::text, author, at, encode(data, 'base64') AS data FROM doc_history h
         WHERE session_id = $1 AND at < $2 ORDER BY h.id LIMIT $3`,
        [sessionId, before.toISOString(), limit],
      );
      return rows.map((r) => ({
        id: Number(r.id),
        author: r.author,
        at: new Date(r.at).getTime(),
        data: fromBase64(r.data),
      }));
    },

    /** Sessions with rows stored before `before`, which the compaction should fold. */
    async unsettled(before: Date): Promise<string[]> {
      const rows = await db.query<{ session_id: string }>(
        "SELECT DISTINCT session_id FROM doc_history WHERE at < $1",
        [before.toISOString()],
      );
      return rows.map((r) => r.session_id);
    },

    /**
     * Stores a chunk and deletes the rows it holds, in one statement. False when another node
     * stored a chunk from the same first row (it folded them): nothing is deleted here then.
     */
    async saveChunk(sessionId: string, chunk: PackedChunk): Promise<boolean> {
      const [row] = await db.query<{ stored: boolean }>(
        `WITH stored AS (
           INSERT INTO doc_history_chunks (session_id, first_id, upto, start_at, end_at, edits, clients, data, merged)
           VALUES ($1, $2, $3, $4, $5, $6, $7, decode($8, 'base64'), decode($9, 'base64'))
           ON CONFLICT DO NOTHING RETURNING 1
         ), folded AS (
           DELETE FROM doc_history WHERE session_id = $1 AND id >= $2 AND id <= $3 AND EXISTS (SELECT 1 FROM stored)
         )
         SELECT EXISTS (SELECT 1 FROM stored) AS stored`,
        [
          sessionId,
          chunk.firstId,
          chunk.upto,
          new Date(chunk.startAt).toISOString(),
          new Date(chunk.endAt).toISOString(),
          chunk.edits,
          JSON.stringify(chunk.clients),
          toBase64(chunk.data),
          toBase64(chunk.merged),
        ],
      );
      return row?.stored === true;
    },

    /** Updates folded into chunks after the latest checkpoint: when enough, the compaction stores a new one. */
    async editsSinceCheckpoint(sessionId: string): Promise<number> {
      const [row] = await db.query<{ edits: string }>(
        `SELECT coalesce(sum(edits), 0)::text AS edits FROM doc_history_chunks
         WHERE session_id = $1
           AND first_id > (SELECT coalesce(max(upto), 0) FROM doc_history_checkpoints WHERE session_id = $1)`,
        [sessionId],
      );
      return Number(row?.edits ?? 0);
    },

    /** What the timeline needs, without reading a single update. */
    async summary(sessionId: string): Promise<HistorySummary> {
      const chunks = await db.query<{
        start_at: Date;
        end_at: Date;
        edits: number;
        authors: (string | null)[];
      }>(
        `SELECT start_at, end_at, edits,
           (SELECT coalesce(jsonb_agg(DISTINCT value), '[]'::jsonb) FROM jsonb_each(clients)) AS authors
         FROM doc_history_chunks c WHERE session_id = $1 ORDER BY c.first_id`,
        [sessionId],
      );
      const [raw] = await db.query<{
        count: string;
        start: Date | null;
        end: Date | null;
        authors: (string | null)[];
      }>(
        `SELECT count(*)::text AS count, min(at) AS start, max(at) AS "end",
           coalesce(jsonb_agg(DISTINCT author), '[]'::jsonb) AS authors
         FROM doc_history WHERE session_id = $1`,
        [sessionId],
      );
      const authors = new Set<string | null>(raw?.authors ?? []);
      for (const chunk of chunks) for (const author of chunk.authors) authors.add(author);
      return {
        chunks: chunks.map((c) => ({
          startAt: new Date(c.start_at).getTime(),
          endAt: new Date(c.end_at).getTime(),
          edits: c.edits,
        })),
        raw: {
          count: Number(raw?.count ?? 0),
          start: raw?.start ? new Date(raw.start).getTime() : null,
          end: raw?.end ? new Date(raw.end).getTime() : null,
        },
        authors: [...authors],
      };
    },

    /** The rows not yet folded counted per each of `buckets` equal slices of [start, end]. */
    async rawActivity(sessionId: string, start: number, end: number, buckets: number): Promise<number[]> {
      const activity = new Array<number>(buckets).fill(0);
      const slices = await db.query<{ bucket: number; count: string }>(
        `SELECT least(greatest(width_bucket(extract(epoch FROM at), extract(epoch FROM $2::timestamptz),
             extract(epoch FROM $3::timestamptz) + 0.001, $4), 1), $4)::int AS bucket, count(*)::text AS count
         FROM doc_history WHERE session_id = $1 GROUP BY 1`,
        [sessionId, new Date(start).toISOString(), new Date(end).toISOString(), buckets],
      );
      for (const slice of slices) activity[slice.bucket - 1] = Number(slice.count);
      return activity;
    },

    /**
     * Deletes the whole history (rows, chunks, checkpoints) of sessions that ended before
     * `endedBefore` and were not reopened; answers how many sessions lost theirs.
     */
    async forgetEnded(endedBefore: Date): Promise<number> {
      const [row] = await db.query<{ sessions: number }>(
        `WITH old AS (
           SELECT id FROM sessions WHERE ended_at IS NOT NULL AND ended_at < $1
         ), rows AS (
           DELETE FROM doc_history WHERE session_id IN (SELECT id FROM old) RETURNING session_id
         ), chunks AS (
           DELETE FROM doc_history_chunks WHERE session_id IN (SELECT id FROM old) RETURNING session_id
         ), keyframes AS (
           DELETE FROM doc_history_checkpoints WHERE session_id IN (SELECT id FROM old) RETURNING session_id
         )
         SELECT count(DISTINCT session_id)::int AS sessions FROM (
           SELECT session_id FROM rows UNION ALL SELECT session_id FROM chunks UNION ALL SELECT session_id FROM keyframes
         ) gone`,
        [endedBefore.toISOString()],
      );
      return row?.sessions ?? 0;
    },
  };
}

export type ReplayRepo = ReturnType<typeof createReplayRepo>;
