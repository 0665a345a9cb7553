import { mkdtempSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import * as Y from "yjs";
import { median } from "../lib/stats";
import { sleep } from "../lib/wait";
import { createDocuments } from "./documents";
import { type ServerOptions, startServer } from "./servers";
import { textNameOf } from "./session";
import { SYSTEMS, type SystemId } from "./systems";
import type { Trace } from "./trace";
import { type BenchClient, type Counters, connectClient } from "./transports";
import { LOCAL } from "./typing";

export interface ColdLoadResult {
  system: SystemId;
  /** Connect to synced text for the first client after a restart, one sample per restart (ms). */
  coldMs: number[];
  /** Same for a second client while the document is loaded. */
  warmMs: number[];
  /** Server CPU spent between the first client's connect and its sync (ms). */
  serverCpuMs: number[];
  /** Server CPU spent between the second client's connect and its text (ms). */
  warmServerCpuMs?: number[];
  /** Of that, the server's own process: the rest is its children's (ours: its embedded PostgreSQL) (ms). */
  warmServerOwnCpuMs?: number[];
  /** The bench process's CPU over the same span: the client's side, sockets included (ms). */
  warmClientCpuMs?: number[];
  /** Of that, the second client's Yjs transactions: applying what it received (ms). */
  warmApplyMs?: number[];
  /**
   * When the second client reached each step of its connection, ms after its start (see
   * `BenchClient.phases`), `synced` and `text` last: where a join's wall time goes.
   */
  warmPhasesMs?: Record<string, number>[];
  /** The machine's 1-minute load average at each restart. */
  loadAverage?: number[];
  rssMbAfterLoad: number[];
  storeMs: number;
  correct: boolean;
}

/** BENCH_COLD_PORT: another port, when several runs share a machine. */
const PORT = Number(process.env.BENCH_COLD_PORT ?? 4320);

/**
 * Connects a client and waits until it is synced and, when `expected` is given, shows that text:
 * y-websocket can answer the first sync before its LevelDB load has finished, so "synced"
 * alone would time an empty document.
 */
async function syncedClient(
  system: SystemId,
  url: string,
  name: string,
  counters: Counters,
  expected?: string,
) {
  const started = performance.now();
  const client = connectClient(system, url, name, counters);
  // Every Yjs transaction of the client's document: what applying the received bytes costs.
  let applyMs = 0;
  let transactionStart = 0;
  client.doc.on("beforeTransaction", () => {
    transactionStart = performance.now();
  });
  client.doc.on("afterTransactionCleanup", () => {
    applyMs += performance.now() - transactionStart;
  });
  await client.synced;
  const syncedAt = performance.now();
  const textName = textNameOf(system, client.doc);
  const text = client.doc.getText(textName);
  let isCorrect = expected === undefined || text.toString() === expected;
  if (!isCorrect) {
    isCorrect = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 60_000);
      client.doc.on("update", () => {
        if (text.toString() !== expected) return;
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
  const ended = performance.now();
  const phases: Record<string, number> = {};
  for (const [phase, at] of Object.entries(client.phases)) phases[phase] = Math.round(at - started);
  phases.synced = Math.round(syncedAt - started);
  phases.text = Math.round(ended - started);
  return { client, textName, ms: ended - started, isCorrect, applyMs, phases };
}

/** Milliseconds of CPU this process has used (user and system). */
function ownCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

async function pushTrace(client: BenchClient, trace: Trace) {
  for (const chunk of trace.chunks) {
    Y.applyUpdate(client.doc, chunk, LOCAL);
    // One chunk per macrotask, so the socket drains as an editor's would.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Stores the trace through the server's own path (a client sends it), restarts the server,
 * and times a new client's connect-to-synced. `system` must store its documents (see SYSTEMS),
 * each in its native way: ours its database, Hocuspocus its Database extension on files, y-websocket LevelDB.
 */
export async function runColdLoad(
  system: SystemId,
  /** The history, made for the root text it is sent to. */
  traceFor: (textName: string) => Trace,
  restarts: number,
  extra: Partial<ServerOptions> = {},
): Promise<ColdLoadResult> {
  if (!SYSTEMS[system].isPersisted) throw new Error(`${system} keeps nothing across a restart: no cold load`);
  const options: ServerOptions = {
    port: PORT,
    dataDir: mkdtempSync(path.join(tmpdir(), `bench-cold-${system}-`)),
    ...extra,
  };
  const counters: Counters = { keystrokes: 0, received: 0, disconnects: 0, updatesSent: 0 };
  let server = await startServer(system, options);
  const [name = "cold"] = await createDocuments(server, 1, `cold-${system}`);
  const { client: writer, textName } = await syncedClient(system, server.url, name, counters);
  const trace = traceFor(textName);
  const started = performance.now();
  await pushTrace(writer, trace);
  const expected = writer.doc.getText(textName).toString();
  // Stored once a second client sees it all; then every client leaves so the document unloads.
  const check = await syncedClient(system, server.url, name, counters, expected);
  const storeMs = performance.now() - started;
  writer.close();
  check.client.close();
  await sleep(3000);
  await server.stop();

  const result: ColdLoadResult = {
    system,
    coldMs: [],
    warmMs: [],
    serverCpuMs: [],
    warmServerCpuMs: [],
    warmServerOwnCpuMs: [],
    warmClientCpuMs: [],
    warmApplyMs: [],
    warmPhasesMs: [],
    loadAverage: [],
    rssMbAfterLoad: [],
    storeMs,
    correct: check.isCorrect,
  };
  for (let i = 0; i < restarts; i++) {
    server = await startServer(system, options);
    await sleep(1000);
    const cpuBefore = server.cpuMs();
    const cold = await syncedClient(system, server.url, name, counters, expected);
    result.serverCpuMs.push(server.cpuMs() - cpuBefore);
    result.coldMs.push(cold.ms);
    result.loadAverage?.push(loadavg()[0] ?? 0);
    const warmCpuBefore = server.cpuMs();
    const warmOwnCpuBefore = server.ownCpuMs();
    const clientCpuBefore = ownCpuMs();
    const warm = await syncedClient(system, server.url, name, counters, expected);
    result.warmClientCpuMs?.push(Math.round(ownCpuMs() - clientCpuBefore));
    result.warmServerCpuMs?.push(server.cpuMs() - warmCpuBefore);
    result.warmServerOwnCpuMs?.push(server.ownCpuMs() - warmOwnCpuBefore);
    result.warmApplyMs?.push(Math.round(warm.applyMs));
    result.warmPhasesMs?.push(warm.phases);
    result.correct &&= cold.isCorrect && warm.isCorrect;
    result.warmMs.push(warm.ms);
    result.rssMbAfterLoad.push((await server.probe(true)).rss / 1024 / 1024);
    cold.client.close();
    warm.client.close();
    await sleep(2000);
    await server.stop();
  }
  console.log(`[cold ${system}] median ${median(result.coldMs).toFixed(0)} ms`, result);
  return result;
}
