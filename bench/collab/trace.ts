import * as Y from "yjs";
import { seededRandom } from "./random";
import { FILE } from "./typing";

/** A long editing history, as the updates a client would send and the text it ends with. */
export interface Trace {
  ops: number;
  /** The history in chunks of `chunkOps` keystrokes, each chunk merged into one update. */
  chunks: Uint8Array[];
  /** Size of the whole document encoded as one update (what a compacted store holds). */
  stateBytes: number;
}

/**
 * A synthetic stand-in for the B4 trace (259,778 single-character edits, about 70 % inserts and
 * 30 % deletes, ending near 104k characters), which is not available offline. One author types
 * at a cursor that mostly moves with the typing and sometimes jumps; deletes are backspaces.
 * Each keystroke is its own transaction, as in the editor. The updates name the root text
 * `textName`, so a trace for our server is made for the id of the file it will land in.
 */
export function generateTrace(ops: number, seed: number, textName = FILE, chunkOps = 1000): Trace {
  const random = seededRandom(seed);
  const doc = new Y.Doc();
  doc.clientID = 4242;
  const text = doc.getText(textName);
  const chunks: Uint8Array[] = [];
  let pending: Uint8Array[] = [];
  doc.on("update", (update: Uint8Array) => {
    pending.push(update);
  });
  let cursor = 0;
  for (let i = 0; i < ops; i++) {
    const length = text.length;
    if (random() < 0.03) cursor = Math.floor(random() * (length + 1));
    if (random() < 0.3 && cursor > 0) {
      text.delete(cursor - 1, 1);
      cursor -= 1;
    } else {
      text.insert(cursor, random() < 0.15 ? "\n" : String.fromCharCode(97 + Math.floor(random() * 26)));
      cursor += 1;
    }
    if (pending.length === chunkOps) {
      chunks.push(Y.mergeUpdates(pending));
      pending = [];
    }
  }
  if (pending.length > 0) chunks.push(Y.mergeUpdates(pending));
  return { ops, chunks, stateBytes: Y.encodeStateAsUpdate(doc).byteLength };
}
