import * as Y from "yjs";
import { type ClientAuthors, noteAuthors } from "./authorship";
import { type HistoryEntry, packChunk, splitChunks, unpackEntries } from "./chunks";
import type { PackChunk } from "./packer";
import type { Checkpoint, ReplayRepo } from "./repo";

/** How the compaction folds the history; constants in production, smaller in tests. */
export interface HistoryLayout {
  /** Updates per chunk at most: a seek into a chunk applies up to this many single updates. */
  chunkEdits: number;
  /** A chunk's time span at most (ms), so the timeline's activity stays fine-grained. */
  chunkSpanMs: number;
  /** A checkpoint (the whole document, gzip) once this many updates were folded since the last. */
  checkpointEvery: number;
}

/**
 * 256 single updates apply in 3-5 ms; past a checkpoint a seek applies whole chunks merged
 * (about 1 ms each). A checkpoint of the bench's 2-hour document is about 70 kB compressed, so
 * one every 2048 updates costs about 35 bytes a keystroke (bench/replay).
 */
export const HISTORY_LAYOUT: HistoryLayout = {
  chunkEdits: 256,
  chunkSpanMs: 5 * 60_000,
  checkpointEvery: 2048,
};

/** Rows read from the database at a time while applying rows not yet folded. */
const PAGE = 2000;

/** What a seek reads the history from: the database (ReplayRepo), or memory (the warm-up). */
export type HistorySource = Pick<ReplayRepo, "checkpoint" | "chunks" | "rows">;

/** The document at a point of the history. */
export interface HistoryState {
  doc: Y.Doc;
  authors: ClientAuthors;
  /** The last update applied (0: none). */
  upto: number;
}

function apply(doc: Y.Doc, authors: ClientAuthors, entry: HistoryEntry) {
  Y.applyUpdate(doc, entry.data);
  noteAuthors(authors, entry.data, entry.author);
}

/**
 * The document as of update `upto`: the nearest checkpoint at or before it, then each chunk
 * after it (merged, in one step, when wholly before `upto`; else its single updates up to
 * it), then the rows not yet folded. Every update with an id up to `upto` is applied, none
 * after, so a moment is exact to the update whatever was compacted.
 */
export async function documentAt(
  repo: HistorySource,
  sessionId: string,
  upto: number,
): Promise<HistoryState> {
  const checkpoint = await repo.checkpoint(sessionId, upto);
  // Collected as the live document is: deleted text leaves only its ids, which later rows can still name.
  const doc = new Y.Doc({ gc: true });
  const authors: ClientAuthors = { ...checkpoint?.authors };
  if (checkpoint) Y.applyUpdate(doc, checkpoint.data);
  const after = checkpoint?.upto ?? 0;
  for (const chunk of await repo.chunks(sessionId, after, upto)) {
    if (chunk.data === null) {
      Y.applyUpdate(doc, chunk.merged);
      mergeClients(authors, chunk.clients);
    } else {
      for (const entry of unpackEntries(chunk.data))
        if (entry.id > after && entry.id <= upto) apply(doc, authors, entry);
    }
  }
  let applied = after;
  for (;;) {
    const rows = await repo.rows(sessionId, applied, upto, PAGE);
    for (const row of rows) apply(doc, authors, row);
    applied = rows.at(-1)?.id ?? applied;
    if (rows.length < PAGE) break;
  }
  return { doc, authors, upto };
}

/** Rows folded per session per pass at most, so one long backlog does not hold the job. */
export const FOLD_LIMIT = 20_000;

/** Called between the compaction's steps: lets the live work through before the next one. */
export type Pace = () => Promise<void>;

const noPause: Pace = async () => {};

const packHere: PackChunk = async (entries) => packChunk(entries);

export interface CompactOptions {
  layout?: HistoryLayout;
  /** Awaited after each chunk. */
  pace?: Pace;
  /** Packs each chunk: here by default, on a worker thread in the server (packer.ts). */
  pack?: PackChunk;
}

/**
 * Folds a session's rows stored before `settledBefore` into chunks (each stored with the
 * deletion of its rows, in one statement), and stores a checkpoint at a chunk's end whenever
 * `checkpointEvery` updates were folded since the last one. Another node folding the same
 * rows stores the same chunk first: this one stops. Answers the rows folded.
 */
export async function compactSession(
  repo: ReplayRepo,
  sessionId: string,
  settledBefore: Date,
  { layout = HISTORY_LAYOUT, pace = noPause, pack = packHere }: CompactOptions = {},
): Promise<number> {
  const rows = await repo.settled(sessionId, settledBefore, FOLD_LIMIT);
  if (rows.length === 0) return 0;
  let sinceCheckpoint = await repo.editsSinceCheckpoint(sessionId);
  // Built the first time a checkpoint is due, then carried along the chunks that follow.
  let state: HistoryState | undefined;
  let folded = 0;
  for (const entries of splitChunks(rows, layout.chunkEdits, layout.chunkSpanMs)) {
    const chunk = await pack(entries);
    if (!(await repo.saveChunk(sessionId, chunk))) break;
    folded += entries.length;
    sinceCheckpoint += entries.length;
    if (state) {
      Y.applyUpdate(state.doc, chunk.merged);
      mergeClients(state.authors, chunk.clients);
      state.upto = chunk.upto;
    }
    if (sinceCheckpoint >= layout.checkpointEvery) {
      state ??= await documentAt(repo, sessionId, chunk.upto);
      await repo.saveCheckpoint(sessionId, snapshotOf(state, new Date(chunk.endAt)));
      sinceCheckpoint = 0;
    }
    await pace();
  }
  state?.doc.destroy();
  return folded;
}

/** Adds a chunk's clients to a running map: the first participant seen with a client keeps it. */
function mergeClients(authors: ClientAuthors, clients: ClientAuthors) {
  for (const [client, author] of Object.entries(clients)) if (!(client in authors)) authors[client] = author;
}

function snapshotOf({ doc, authors, upto }: HistoryState, at: Date): Checkpoint {
  return { upto, at, data: Y.encodeStateAsUpdate(doc), authors: { ...authors } };
}
