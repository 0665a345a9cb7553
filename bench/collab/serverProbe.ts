/**
 * Preloaded into every server under test (`node --expose-gc --import <this, compiled> server.js`),
 * so the three servers are instrumented the same way without patching any of them. Over the IPC
 * channel it answers `{ type: "probe" }` with memory and event-loop delay, after a full GC when
 * asked; the delay histogram restarts after each answer. With `BENCH_PROBE_YJS_FROM` set (the
 * y-websocket server's script), it also counts the Yjs updates that server applied and answers
 * them to `{ type: "updates" }`.
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { createRequire } from "node:module";
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import { writeHeapSnapshot } from "node:v8";
import type * as Y from "yjs";

export interface ProbeReply {
  type: "probe";
  rss: number;
  heapUsed: number;
  /** Memory of C++ objects bound to JS ones, ArrayBuffers (socket and message buffers) included. */
  external: number;
  /** Event-loop delay since the last probe, in ms. */
  loopDelay: { p50: number; p99: number; max: number };
  /** Garbage-collection pauses since the last probe (the forced ones of this probe excluded). */
  gc: { count: number; totalMs: number; maxMs: number };
  /** TCP connections the process holds open now (its listening sockets not counted). */
  tcpSockets: number;
}

/** The answer to `{ type: "heapSnapshot", file }`: the snapshot is written there. */
export interface HeapSnapshotReply {
  type: "heapSnapshot";
  file: string;
  ms: number;
}

export interface YjsUpdatesReply {
  type: "updates";
  /** Updates from a connection that changed a document (the `update` events a client caused). */
  applied: number;
  /** Messages the server failed on (y-websocket reports them as a document's `error` event). */
  refused: number;
  /** Whether the documents the server holds are of the `yjs` instance counted here. */
  isSameInstance: boolean;
}

// The histogram records whole timer intervals; the delay is what exceeds the resolution.
const RESOLUTION_MS = 10;
const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
histogram.enable();

const gc = (globalThis as { gc?: () => void }).gc;

// Every pause the collector made, so a step can say how much of its tail was GC.
let pauses = { count: 0, totalMs: 0, maxMs: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    pauses.count += 1;
    pauses.totalMs += entry.duration;
    pauses.maxMs = Math.max(pauses.maxMs, entry.duration);
  }
}).observe({ entryTypes: ["gc"] });

/**
 * Counts applied updates in a CommonJS server by hooking `Doc.prototype.emit` of the `yjs` it
 * loads: `require` caches modules by file, so resolving `yjs` from the server's own script
 * gives the very instance its documents are made of (checked on every answer through the
 * server's `docs` map, y-websocket's export of the documents it holds).
 */
function countYjsUpdates(serverScript: string) {
  const requireFromServer = createRequire(serverScript);
  const yjs = requireFromServer("yjs") as typeof Y;
  const counts = { applied: 0, refused: 0 };
  type Emitter = { emit(name: string, args: unknown[]): void };
  const prototype = yjs.Doc.prototype as unknown as Emitter;
  const emit = prototype.emit;
  prototype.emit = function (this: Y.Doc, name: string, args: unknown[]) {
    // A connection is the origin of a client's update; a null origin is the server's own load.
    if (name === "update" && args[1] != null) counts.applied += 1;
    else if (name === "error") counts.refused += 1;
    emit.call(this, name, args);
  };
  const utils = requireFromServer.resolve("./utils.js");
  const isSameInstance = () => {
    const docs: unknown = requireFromServer.cache[utils]?.exports?.docs;
    return docs instanceof Map && [...docs.values()].every((doc) => doc instanceof yjs.Doc);
  };
  return (): YjsUpdatesReply => ({ type: "updates", ...counts, isSameInstance: isSameInstance() });
}

const yjsServer = process.env.BENCH_PROBE_YJS_FROM;
const updates = yjsServer ? countYjsUpdates(yjsServer) : undefined;

if (process.send) {
  process.on("message", (message: { type?: string; gc?: boolean; file?: string }) => {
    if (message.type === "updates" && updates) {
      process.send?.(updates());
      return;
    }
    // The whole heap, for the scale bench's account of what an idle client holds; it blocks the
    // server for as long as it takes (seconds for hundreds of MB).
    if (message.type === "heapSnapshot" && typeof message.file === "string") {
      const started = performance.now();
      const file = writeHeapSnapshot(message.file);
      const reply: HeapSnapshotReply = { type: "heapSnapshot", file, ms: performance.now() - started };
      process.send?.(reply);
      return;
    }
    if (message.type !== "probe") return;
    const since = pauses;
    if (message.gc && gc) {
      gc();
      gc();
    }
    pauses = { count: 0, totalMs: 0, maxMs: 0 };
    const memory = process.memoryUsage();
    const reply: ProbeReply = {
      type: "probe",
      rss: memory.rss,
      heapUsed: memory.heapUsed,
      external: memory.external,
      loopDelay: {
        p50: histogram.percentile(50) / 1e6 - RESOLUTION_MS,
        p99: histogram.percentile(99) / 1e6 - RESOLUTION_MS,
        max: histogram.max / 1e6 - RESOLUTION_MS,
      },
      gc: since,
      tcpSockets: process.getActiveResourcesInfo().filter((name) => name === "TCPSocketWrap").length,
    };
    histogram.reset();
    process.send?.(reply);
  });
  // The channel must not keep a server alive once it has closed everything else.
  process.channel?.unref();
}

/**
 * `BENCH_HEAP_SAMPLE=<file prefix>`: samples allocations from `BENCH_HEAP_SAMPLE_AT`'s first
 * second of the server's life to its second (default 35,45: inside the first step) and writes
 * those still alive at the end (what survived the window: what makes the old generation grow)
 * as a `.heapprofile` that Chromium's DevTools open. With `BENCH_HEAP_SAMPLE_MAJOR=1` it also
 * keeps those a mark-compact freed meanwhile: promoted by a scavenge, dead soon after.
 */
const heapSample = process.env.BENCH_HEAP_SAMPLE;
if (heapSample) {
  duringWindow(
    process.env.BENCH_HEAP_SAMPLE_AT,
    (session) =>
      session.post("HeapProfiler.startSampling", {
        samplingInterval: 256,
        // What a scavenge promoted and a mark-compact then freed: the medium-lived objects.
        includeObjectsCollectedByMajorGC: process.env.BENCH_HEAP_SAMPLE_MAJOR === "1",
      }),
    (session) =>
      session.post("HeapProfiler.stopSampling", (error, result) => {
        if (error) console.error("heap sample failed:", error);
        else writeFileSync(`${heapSample}-${process.pid}.heapprofile`, JSON.stringify(result.profile));
      }),
  );
}

/**
 * `BENCH_CPU_WINDOW=<file prefix>`: a V8 CPU profile of `BENCH_CPU_WINDOW_AT`'s seconds of the
 * server's life only (default 35,45: inside the first step), without the start and the joins
 * that `BENCH_CPU_PROF`'s whole-life profile also holds. `profileTop.ts` reads it.
 */
const cpuWindow = process.env.BENCH_CPU_WINDOW;
if (cpuWindow) {
  duringWindow(
    process.env.BENCH_CPU_WINDOW_AT,
    (session) => session.post("Profiler.enable", () => session.post("Profiler.start")),
    (session) =>
      session.post("Profiler.stop", (error, result) => {
        if (error) console.error("CPU profile failed:", error);
        else writeFileSync(`${cpuWindow}-${process.pid}.cpuprofile`, JSON.stringify(result.profile));
      }),
  );
}

/**
 * Calls `start` and `stop` with an inspector session of this process at the seconds of the
 * server's life `text` names, "from,to" (default 35,45).
 */
function duringWindow(
  text: string | undefined,
  start: (session: Session) => void,
  stop: (session: Session) => void,
): void {
  const [from = 35, to = 45] = (text ?? "").split(",").filter(Boolean).map(Number);
  const session = new Session();
  session.connect();
  setTimeout(() => {
    start(session);
    setTimeout(() => stop(session), (to - from) * 1000).unref();
  }, from * 1000).unref();
}
