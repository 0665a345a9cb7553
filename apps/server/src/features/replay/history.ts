import * as Y from "yjs";
import { type ClientAuthors, noteAuthors } from "./authorship";
import type { Checkpoint, ReplayRepo } from "./repo";

/**
 * A checkpoint every this many history rows: a seek then reads and applies at most this many
 * updates after the nearest checkpoint's document, whatever the length of the session. 1000 left
 * the slowest seeks of a 2-hour, three-typist session at 90-120 ms (bench/replay), 500 takes
 * 8-15 ms off them for 70 kB of compressed checkpoint per 500 keystrokes.
 */
export const CHECKPOINT_EVERY = 500;

/** Rows read from the database at a time while walking the history. */
const PAGE = 2000;

/** The document at a point of the history. */
export interface HistoryState {
  doc: Y.Doc;
  authors: ClientAuthors;
  /** The last row applied (0: none). */
  upto: number;
}

/**
 * The document as of row `upto`: the nearest checkpoint at or before it, then the rows after
 * it, in order. Walking past `CHECKPOINT_EVERY` rows since the last checkpoint stores a new one,
 * so the first seek into a long unvisited stretch pays for it once and every later one is short.
 */
export async function documentAt(
  repo: ReplayRepo,
  sessionId: string,
  upto: number,
  every = CHECKPOINT_EVERY,
): Promise<HistoryState> {
  const checkpoint = await repo.checkpoint(sessionId, upto);
  // Collected as the live document is: deleted text leaves only its ids, which later rows can still name.
  const doc = new Y.Doc({ gc: true });
  const authors: ClientAuthors = { ...checkpoint?.authors };
  if (checkpoint) Y.applyUpdate(doc, checkpoint.data);
  let applied = checkpoint?.upto ?? 0;
  let sinceCheckpoint = 0;
  for (;;) {
    const rows = await repo.rows(sessionId, applied, upto, PAGE);
    for (const row of rows) {
      Y.applyUpdate(doc, row.data);
      noteAuthors(authors, row.data, row.author);
      applied = row.id;
      sinceCheckpoint += 1;
      if (sinceCheckpoint >= every) {
        sinceCheckpoint = 0;
        await repo.saveCheckpoint(sessionId, snapshotOf(doc, authors, row.id, row.at));
      }
    }
    if (rows.length < PAGE) break;
  }
  return { doc, authors, upto: applied };
}

function snapshotOf(doc: Y.Doc, authors: ClientAuthors, upto: number, at: Date): Checkpoint {
  return { upto, at, data: Y.encodeStateAsUpdate(doc), authors: { ...authors } };
}
