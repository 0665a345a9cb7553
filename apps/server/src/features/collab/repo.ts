import { randomUUID } from "node:crypto";
import type { Db } from "../../db/index";

/**
 * Binary columns travel as base64 text (`encode`/`decode` in SQL, `Buffer` here): PGlite
 * parses a bytea value's hex text in JavaScript, 25× slower than this for a 1 MB snapshot
 * (62 ms against 2.5 ms; a 200-file workspace's first join waited on it).
 */
const fromBase64 = (text: string): Uint8Array => Buffer.from(text, "base64");
const toBase64 = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");

/**
 * What `compact` writes (format 2 of doc_snapshots): the whole document of a loaded, initialised
 * workspace as one update, its state vector and its summary. (Format 1 lacked the vector.)
 */
const SNAPSHOT_FORMAT = 2;

/** Tries of a compaction that another writer's snapshot overtook, before it gives up. */
const COMPACT_ATTEMPTS = 5;

/** A session's stored document: the snapshot (if any) and the updates logged after it, in order. */
export interface StoredDoc {
  snapshot?: Uint8Array | undefined;
  /**
   * The snapshot's state vector, and its state vector and delete set (`Y.encodeSnapshot`),
   * present only when the snapshot is of the current format: its workspace is initialised, so
   * the session may be served without building its document.
   */
  stateVector?: Uint8Array | undefined;
  summary?: Uint8Array | undefined;
  updates: Uint8Array[];
  /** The snapshot's generation (raised by every snapshot write), or null without a snapshot. */
  generation?: number | null;
}

/** A snapshot to store: the whole document as one update, its state vector and its summary. */
export interface Snapshot {
  state: Uint8Array;
  stateVector: Uint8Array;
  summary: Uint8Array;
}

/**
 * SQL for a session's stored document: the snapshot and the updates logged after it. Safe
 * with several writers of one session (cluster nodes during a handover): see `compact`.
 * `writer` tells this process's update rows from every other's.
 */
export function createDocRepo(db: Db, writer: string = randomUUID()) {
  return {
    async load(sessionId: string): Promise<StoredDoc> {
      const snapshots = await db.query<{
        data: string;
        format: number;
        generation: string;
        state_vector: string | null;
        summary: string | null;
      }>(
        `SELECT encode(data, 'base64') AS data, format, encode(state_vector, 'base64') AS state_vector,
           encode(summary, 'base64') AS summary, generation::text AS generation
         FROM doc_snapshots WHERE session_id = $1`,
        [sessionId],
      );
      const updates = await db.query<{ data: string }>(
        "SELECT encode(data, 'base64') AS data FROM doc_updates WHERE session_id = $1 ORDER BY id",
        [sessionId],
      );
      const [snapshot] = snapshots;
      const isCurrent = snapshot?.format === SNAPSHOT_FORMAT;
      const current = (text: string | null | undefined) =>
        isCurrent && typeof text === "string" ? fromBase64(text) : undefined;
      return {
        snapshot: snapshot && fromBase64(snapshot.data),
        stateVector: current(snapshot?.state_vector),
        summary: current(snapshot?.summary),
        updates: updates.map((u) => fromBase64(u.data)),
        generation: snapshot ? Number(snapshot.generation) : null,
      };
    },

    /**
     * Appends updates of any sessions in one statement, which also keeps each in the history
     * (doc_history, migration 011: the replay's, never compacted) under the same id, with its
     * time and author: one write, so the log and the history cannot disagree. The rows come
     * as three arrays, so the text never changes and the statement is prepared once: against
     * a VALUES list of three parameters a row, planned anew for each count, PostgreSQL's CPU
     * for a tick of 55 updates went from 1.65-1.75 to 1.20-1.28 ms, for 14 from 0.50-0.68 to
     * 0.45 ms (bench/database/appendStatement.ts, PostgreSQL 15, 26 Nov).
     *
     * Updates of a session that does not exist (deleted meanwhile) are left out by a join, not
     * refused by a foreign key (migration 015): the rest of the tick is stored all the same.
     * Answers how many updates were stored.
     */
    async appendMany(
      rows: readonly { sessionId: string; update: Uint8Array; author?: string | undefined }[],
    ): Promise<number> {
      if (rows.length === 0) return 0;
      const [stored] = await db.query<{ count: number }>(
        `WITH logged AS (
           INSERT INTO doc_updates (session_id, data, author, writer)
           SELECT session_id, decode(data, 'base64'), author, $1
           FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS row(session_id, data, author, n)
           WHERE EXISTS (SELECT 1 FROM sessions WHERE sessions.id = row.session_id)
           ORDER BY n
           RETURNING id, session_id, data, author, created_at
         ), kept AS (
           INSERT INTO doc_history (id, session_id, author, at, data)
           SELECT id, session_id, author, created_at, data FROM logged
           RETURNING 1
         )
         SELECT count(*)::int AS count FROM kept`,
        [
          writer,
          rows.map((r) => r.sessionId),
          rows.map((r) => toBase64(r.update)),
          rows.map((r) => r.author ?? null),
        ],
        "ensemble_append_updates",
      );
      return stored?.count ?? 0;
    },

    /**
     * Writes a snapshot and drops the logged updates it is known to contain; answers the
     * snapshot's new generation. `fold` gets what other writers stored that our document may
     * lack (their rows, and the stored snapshot when its generation is not `known`, the one
     * we loaded or last wrote) and answers the whole document with it folded in.
     *
     * Two statements, no transaction: one reads, one writes. The write replaces the snapshot
     * only if its generation is still the one read, and drops rows only if it did; otherwise
     * another writer stored a snapshot meanwhile, and we read and fold again. So two writers
     * never both replace a snapshot each thought was theirs.
     *
     * Our own rows go by id range. The proof: the rows read when the document loaded are in
     * it, and a new update is applied to it before its INSERT starts; ids are handed out in
     * order, so our row with an id up to the largest one committed at our read got its id (and
     * so was in the document) before that read, which comes before `fold`. Another writer's
     * rows go only by the ids we read and folded: theirs were never applied here.
     */
    async compact(
      sessionId: string,
      fold: (foreign: Uint8Array[]) => Snapshot,
      known: number | null = null,
    ): Promise<number> {
      for (let attempt = 1; ; attempt++) {
        const [read] = await db.query<{
          generation: string | null;
          data: string | null;
          last: string | null;
          other_ids: string[] | null;
          other_data: string[] | null;
        }>(
          `SELECT s.generation::text AS generation,
             CASE WHEN s.generation IS DISTINCT FROM $3::bigint THEN encode(s.data, 'base64') END AS data,
             (SELECT max(id)::text FROM doc_updates WHERE session_id = $1 AND writer = $2) AS last,
             o.ids AS other_ids, o.data AS other_data
           FROM (SELECT 1) AS one
           LEFT JOIN doc_snapshots s ON s.session_id = $1
           CROSS JOIN (
             SELECT array_agg(id::text ORDER BY id) AS ids, array_agg(encode(data, 'base64') ORDER BY id) AS data
             FROM doc_updates WHERE session_id = $1 AND writer IS DISTINCT FROM $2
           ) AS o`,
          [sessionId, writer, known],
        );
        const otherIds = read?.other_ids ?? [];
        const foreign = (read?.other_data ?? []).map(fromBase64);
        if (read?.data) foreign.unshift(fromBase64(read.data));
        const { state, stateVector, summary } = fold(foreign);
        const readGeneration = read?.generation ?? null;
        const generation = readGeneration === null ? 1 : Number(readGeneration) + 1;
        const [written] = await db.query<{ generation: string }>(
          `WITH snapshot AS (
             INSERT INTO doc_snapshots (session_id, data, format, state_vector, summary, generation)
             VALUES ($1, decode($2, 'base64'), $3, decode($4, 'base64'), decode($5, 'base64'), $6)
             ON CONFLICT (session_id) DO UPDATE SET data = EXCLUDED.data, format = EXCLUDED.format,
               state_vector = EXCLUDED.state_vector, summary = EXCLUDED.summary,
               generation = EXCLUDED.generation, updated_at = now()
             WHERE doc_snapshots.generation IS NOT DISTINCT FROM $7::bigint
             RETURNING generation
           ), ours AS (
             DELETE FROM doc_updates WHERE session_id = $1 AND writer = $8 AND id <= $9::bigint
               AND EXISTS (SELECT 1 FROM snapshot)
           ), theirs AS (
             DELETE FROM doc_updates WHERE session_id = $1 AND id = ANY($10::bigint[])
               AND EXISTS (SELECT 1 FROM snapshot)
           )
           SELECT generation::text AS generation FROM snapshot`,
          [
            sessionId,
            toBase64(state),
            SNAPSHOT_FORMAT,
            toBase64(stateVector),
            toBase64(summary),
            generation,
            readGeneration,
            writer,
            read?.last ?? null,
            otherIds,
          ],
        );
        if (written) return Number(written.generation);
        if (attempt >= COMPACT_ATTEMPTS)
          throw new Error(`snapshot of ${sessionId} replaced by other writers ${attempt} times in a row`);
        // Another writer stored a snapshot since our read: the next read brings it to fold in.
      }
    },
  };
}

export type DocRepo = ReturnType<typeof createDocRepo>;
