// The CPU of the history compaction's chunks, on a worker thread so the event loop keeps
// relaying edits meanwhile (packer.ts starts it). The same three calls as `doChunkWork` in
// chunks.ts; packer.test.ts checks both give the same chunk. Plain JavaScript, as the server's
// other helpers: it runs from src/ under tests and from dist/ in production.
import { parentPort } from "node:worker_threads";
import { gzipSync } from "node:zlib";
import * as Y from "yjs";

parentPort?.on("message", ({ id, raw, updates }) => {
  try {
    parentPort?.postMessage({
      id,
      data: gzipSync(raw),
      merged: Y.mergeUpdates(updates),
      clients: updates.map((update) => [...Y.parseUpdateMeta(update).to.keys()]),
    });
  } catch (error) {
    parentPort?.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
