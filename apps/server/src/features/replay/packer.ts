import { Worker } from "node:worker_threads";
import type { Logger } from "../../logger";
import {
  type ChunkWork,
  type ChunkWorkDone,
  finishChunk,
  type HistoryEntry,
  layOutChunk,
  type PackedChunk,
} from "./chunks";

/** Packs a chunk (chunks.ts): here and now, or on the packer's worker thread. */
export type PackChunk = (entries: readonly HistoryEntry[]) => Promise<PackedChunk>;

/** Without a job for this long, the worker ends (a server whose sessions are idle holds none). */
const IDLE_MS = 60_000;

interface Waiting {
  /** The worker the job went to. */
  by: Worker;
  resolve: (done: ChunkWorkDone) => void;
  reject: (error: Error) => void;
}

type Answer = ({ id: number } & ChunkWorkDone) | { id: number; error: string };

/**
 * The compaction's chunks packed on a worker thread (`packWorker.js`): merging 256 updates and
 * compressing them took 2-7 ms at a time on the event loop, in runs of 25 sessions' chunks
 * every 30 s, and the edits relayed meanwhile waited (bench/collab, issue 32). The worker
 * starts with the first chunk, ends after `idleMs` without one, and again with the next; a
 * worker that fails or exits fails the chunks it held (the compaction leaves their rows as
 * they are and folds them next pass).
 */
export function createChunkPacker(logger: Logger, idleMs = IDLE_MS) {
  let worker: Worker | undefined;
  let nextId = 1;
  const waiting = new Map<number, Waiting>();
  let idleTimer: NodeJS.Timeout | undefined;

  const failAll = (by: Worker, error: Error) => {
    for (const [id, job] of waiting)
      if (job.by === by) {
        waiting.delete(id);
        job.reject(error);
      }
  };

  const start = (): Worker => {
    const started = new Worker(new URL("./packWorker.js", import.meta.url));
    started.on("message", (answer: Answer) => {
      const job = waiting.get(answer.id);
      if (!job) return;
      waiting.delete(answer.id);
      if ("error" in answer) job.reject(new Error(`packing a history chunk failed: ${answer.error}`));
      else job.resolve(answer);
      if (waiting.size === 0) rest();
    });
    started.on("error", (error) => {
      logger.warn({ err: error }, "the history packer's worker failed");
      failAll(started, error);
    });
    started.on("exit", () => {
      if (worker === started) worker = undefined;
      failAll(started, new Error("the history packer's worker exited"));
    });
    return started;
  };

  const rest = () => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      const idle = worker;
      worker = undefined;
      if (idle && waiting.size === 0) void idle.terminate();
    }, idleMs);
    idleTimer.unref();
  };

  const work = (job: ChunkWork): Promise<ChunkWorkDone> => {
    clearTimeout(idleTimer);
    worker ??= start();
    const id = nextId++;
    const sent = worker;
    return new Promise<ChunkWorkDone>((resolve, reject) => {
      waiting.set(id, { by: sent, resolve, reject });
      sent.postMessage({ id, ...job });
    });
  };

  const pack: PackChunk = async (entries) => {
    const layout = layOutChunk(entries);
    return finishChunk(layout, await work(layout.work));
  };

  return {
    pack,
    /** Whether the worker is up (it ends after `idleMs` without a chunk). */
    isRunning: () => worker !== undefined,
    /** Ends the worker; chunks still packing fail. */
    async close(): Promise<void> {
      clearTimeout(idleTimer);
      const running = worker;
      worker = undefined;
      if (running) await running.terminate();
    },
  };
}

export type ChunkPacker = ReturnType<typeof createChunkPacker>;
