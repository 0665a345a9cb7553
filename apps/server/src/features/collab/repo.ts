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
}

/** A snapshot to store: the whole document as one update, its state vector and its summary. */
export interface Snapshot {
  state: Uint8Array;
  stateVector: Uint8Array;
  summary: Uint8Array;
}

/** SQL for a session's stored document: the snapshot and the updates logged after it. */
export function createDocRepo(db: Db) {
  return {
    async load(sessionId: string): Promise<StoredDoc> {
      const snapshots = await db.query<{
        data: string;
        format: number;
        state_vector: string | null;
        summary: string | null;
      }>(
        `SELECT encode(data, 'base64') AS data, format, encode(state_vector, 'base64') AS state_vector,
           encode(summary, 'base64') AS summary
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
        .map((_, i) => `($${3 * i + 1}, decode($${3 * i + 2}, 'base64'), $${3 * i + 3})`)
        .join(", ");
      await db.query(
        `WITH logged AS (
           INSERT INTO doc_updates (session_id, data, author) VALUES ${values}
           RETURNING id, session_id, data, author, created_at
         )
         INSERT INTO doc_history (id, session_id, author, at, data)
         SELECT id, session_id, author, created_at, data FROM logged`,
        rows.flatMap((r) => [r.sessionId, toBase64(r.update), r.author ?? null]),
      );
    },

    /**
     * Writes a snapshot and drops the logged updates it is known to contain: those stored
     * before `encode` ran. The proof: the rows read when the document loaded are in it, and a
     * new update is applied to it before its INSERT starts; ids are handed out in order, so a
     * row with an id up to the largest one committed at our read got its id (and so was in the
     * document) before that read, which comes before `encode`. A row committed later stays,
     * even with a smaller id; applying an update twice is harmless in Yjs.
     */
    async compact(sessionId: string, encode: () => Snapshot): Promise<void> {
      await db.transaction(async (tx) => {
        const [last] = await tx.query<{ id: string | null }>(
          "SELECT max(id)::text AS id FROM doc_updates WHERE session_id = $1",
          [sessionId],
        );
        const { state, stateVector, summary } = encode();
        await tx.query(
          `INSERT INTO doc_snapshots (session_id, data, format, state_vector, summary)
           VALUES ($1, decode($2, 'base64'), $3, decode($4, 'base64'), decode($5, 'base64'))
           ON CONFLICT (session_id) DO UPDATE SET data = EXCLUDED.data, format = EXCLUDED.format,
             state_vector = EXCLUDED.state_vector, summary = EXCLUDED.summary, updated_at = now()`,
          [sessionId, toBase64(state), SNAPSHOT_FORMAT, toBase64(stateVector), toBase64(summary)],
        );
        if (last?.id) {
          await tx.query("DELETE FROM doc_updates WHERE session_id = $1 AND id <= $2", [sessionId, last.id]);
        }
      });
    },
  };
}

export type DocRepo = ReturnType<typeof createDocRepo>;
