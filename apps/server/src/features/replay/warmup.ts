import { FILES_MAP, FOLDERS_MAP, fileText } from "@ensemble/collab";
import * as Y from "yjs";
import { type ClientAuthors, filesOf, noteAuthors } from "./authorship";
import { type HistoryEntry, packChunk, splitChunks } from "./chunks";
import { documentAt, type HistorySource } from "./history";
import type { Checkpoint, StoredChunk } from "./repo";

/** The synthetic session: three typists in two files, about as many edits as a checkpoint spans. */
const TYPISTS = ["warm-a", "warm-b", "warm-c"];
const FILE_IDS = ["warm-1", "warm-2"];
const EDITS = 3000;
/** Its history's layout: chunks up to FOLDED_UPTO with a checkpoint inside them (as the compaction folds), rows not yet folded after. */
const CHECKPOINT_AT = 1500;
const FOLDED_UPTO = 2800;
const CHUNK_EDITS = 256;

/**
 * Builds moments of a small synthetic history once, in memory, as a seek does (a checkpoint,
 * chunks merged and unpacked, single rows, then the files with their authors), so the first
 * seek a started process answers does not also pay for V8 meeting Yjs's decoding and this
 * code cold: on bench/replay, the first build after a start took about 200 ms, later builds of
 * the same moment 15-30 ms. Answers how long it took (about 200 ms, cold,
 * on an AMD EPYC: the process runs it before it listens); throws if the history built does not
 * hold the text typed (a broken build is better found at start than at a seek).
 */
export async function warmUpReplay(): Promise<number> {
  const started = performance.now();
  const { entries, texts } = typeSession();
  const source = historySource(entries);
  const last = entries.length;
  for (const upto of [last, FOLDED_UPTO - CHUNK_EDITS / 2, CHECKPOINT_AT / 2]) {
    const { doc, authors } = await documentAt(source, "warm-up", upto);
    try {
      const { files } = filesOf(doc, authors);
      if (upto === last && files.map((f) => f.content).join("\n") !== texts.join("\n"))
        throw new Error("the replay's warm-up built another text than the one typed");
    } finally {
      doc.destroy();
    }
  }
  return performance.now() - started;
}

/**
 * The session typed in one document whose client id changes with the typist (as three browsers'
 * documents, kept in sync, would write), each update recorded as the server stores it.
 */
function typeSession(): { entries: HistoryEntry[]; texts: string[] } {
  const doc = new Y.Doc();
  const entries: HistoryEntry[] = [];
  let author: string | null = null;
  doc.on("update", (update: Uint8Array) => {
    entries.push({
      id: entries.length + 1,
      author,
      at: 1_700_000_000_000 + entries.length * 150,
      data: update,
    });
  });
  doc.transact(() => {
    for (const [i, id] of FILE_IDS.entries()) doc.getMap<string>(FILES_MAP).set(id, `src/warm${i}.py`);
    doc.getMap<boolean>(FOLDERS_MAP).set("docs", true);
  });
  for (let i = 0; i < EDITS; i++) {
    const typist = i % TYPISTS.length;
    doc.clientID = 1000 + typist;
    author = TYPISTS[typist] as string;
    const text = fileText(doc, FILE_IDS[(i >> 4) % FILE_IDS.length] as string);
    const at = (i * 7919) % (text.length + 1);
    if (i % 10 === 9 && text.length > 8) text.delete(Math.min(at, text.length - 4), 3);
    else text.insert(at, i % 5 === 0 ? "def f():\n" : String.fromCharCode(97 + (i % 26)));
  }
  const texts = FILE_IDS.map((id) => fileText(doc, id).toString());
  doc.destroy();
  return { entries, texts };
}

/** The history as the database would hold it after a compaction pass, read as a seek reads it. */
function historySource(entries: readonly HistoryEntry[]): HistorySource {
  const base = new Y.Doc();
  const authors: ClientAuthors = {};
  for (const entry of entries.slice(0, CHECKPOINT_AT)) {
    Y.applyUpdate(base, entry.data);
    noteAuthors(authors, entry.data, entry.author);
  }
  const checkpoint: Checkpoint = {
    upto: CHECKPOINT_AT,
    at: new Date(entries[CHECKPOINT_AT - 1]?.at ?? 0),
    data: Y.encodeStateAsUpdate(base),
    authors,
  };
  base.destroy();
  const chunks = splitChunks(entries.slice(0, FOLDED_UPTO), CHUNK_EDITS, Number.MAX_SAFE_INTEGER)
    .map(packChunk)
    .map((c) => ({ firstId: c.firstId, upto: c.upto, clients: c.clients, merged: c.merged, data: c.data }));
  return {
    checkpoint: async (_session, upto) => (upto >= checkpoint.upto ? checkpoint : undefined),
    chunks: async (_session, after, upto): Promise<StoredChunk[]> =>
      chunks
        .filter((c) => c.upto > after && c.firstId <= upto)
        .map((c) => ({ ...c, data: c.firstId <= after || c.upto > upto ? c.data : null })),
    rows: async (_session, after, upto, limit) =>
      entries.filter((e) => e.id > Math.max(after, FOLDED_UPTO) && e.id <= upto).slice(0, limit),
  };
}
