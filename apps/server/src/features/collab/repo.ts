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
     * time and author: one write, so the log and the history cannot disagree.
     */
    async appendMany(
      rows: readonly { sessionId: string; update: Uint8Array; author?: string | undefined }[],
    ): Promise<void> {
      if (rows.length === 0) return;
      const values = rows
        .map((_, i) => `($${3 * i + 2}, decode($${3 * i + 3}, 'base64'), $${3 * i + 4}, $1)`)
        .join(", ");
      await db.query(
        `WITH logged AS (
           INSERT INTO doc_updates (session_id, data, author, writer) VALUES ${values}
           RETURNING id, session_id, data, author, created_at
         )
         INSERT INTO doc_history (id, session_id, author, at, data)
         SELECT id, session_id, author, created_at, data FROM logged`,
        [writer, ...rows.flatMap((r) => [r.sessionId, toBase64(r.update), r.author ?? null])],
      );
    },

    /**
     * Writes a snapshot and drops the logged updates it is known to contain; answers the
     * snapshot's new generation. `fold` gets what other writers stored that our document may
     * lack (their rows, and the stored snapshot when its generation is not `known`, the one
     * we loaded or last wrote) and answers the whole document with it folded in.
     *
     * Our own rows go by id range. The proof: the rows read when the document loaded are in
     * it, and a new update is applied to it before its INSERT starts; ids are handed out in
     * order, so our row with an id up to the largest one committed at our read got its id (and
     * so was in the document) before that read, which comes before `fold`. Another writer's
     * rows go only by the ids we read and folded: theirs were never applied here. One
     * compaction of a session at a time, across nodes (an advisory lock), so two writers never
     * both replace a snapshot each thought was theirs.
     */
    async compact(
      sessionId: string,
      fold: (foreign: Uint8Array[]) => Snapshot,
      known: number | null = null,
    ): Promise<number> {
      return db.transaction(async (tx) => {
        await tx.query("SELECT pg_advisory_xact_lock(hashtext('ensemble:doc:' || $1::text))", [sessionId]);
        const [stored] = await tx.query<{ generation: string; data: string | null }>(
          `SELECT generation::text AS generation,
             CASE WHEN generation IS DISTINCT FROM $2::bigint THEN encode(data, 'base64') END AS data
           FROM doc_snapshots WHERE session_id = $1`,
          [sessionId, known],
        );
        const [last] = await tx.query<{ id: string | null }>(
          "SELECT max(id)::text AS id FROM doc_updates WHERE session_id = $1 AND writer = $2",
          [sessionId, writer],
        );
        const others = await tx.query<{ id: string; data: string }>(
          `SELECT id::text AS id, encode(data, 'base64') AS data FROM doc_updates
           WHERE session_id = $1 AND writer IS DISTINCT FROM $2 ORDER BY id`,
          [sessionId, writer],
        );
        const foreign = others.map((row) => fromBase64(row.data));
        if (stored?.data) foreign.unshift(fromBase64(stored.data));
        const { state, stateVector, summary } = fold(foreign);
        const generation = stored ? Number(stored.generation) + 1 : 1;
        await tx.query(
          `INSERT INTO doc_snapshots (session_id, data, format, state_vector, summary, generation)
           VALUES ($1, decode($2, 'base64'), $3, decode($4, 'base64'), decode($5, 'base64'), $6)
           ON CONFLICT (session_id) DO UPDATE SET data = EXCLUDED.data, format = EXCLUDED.format,
             state_vector = EXCLUDED.state_vector, summary = EXCLUDED.summary,
             generation = EXCLUDED.generation, updated_at = now()`,
          [sessionId, toBase64(state), SNAPSHOT_FORMAT, toBase64(stateVector), toBase64(summary), generation],
        );
        if (last?.id) {
          await tx.query("DELETE FROM doc_updates WHERE session_id = $1 AND writer = $2 AND id <= $3", [
            sessionId,
            writer,
            last.id,
          ]);
        }
        if (others.length > 0) {
          await tx.query("DELETE FROM doc_updates WHERE session_id = $1 AND id = ANY($2::bigint[])", [
            sessionId,
            others.map((row) => row.id),
          ]);
        }
        return generation;
      });
    },
  };
}

export type DocRepo = ReturnType<typeof createDocRepo>;
