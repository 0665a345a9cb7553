/**
 * The idle scale test (issue 32 item 3): thousands of sessions of three clients connected to
 * one server process, idle, then a few of them typing. `npm run bench:scale -w bench`; the
 * knobs are in README.md.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { getHeapStatistics } from "node:v8";
import { createDocuments } from "../collab/documents";
import type { Connected } from "../collab/loadgen";
import {
  closeLoadgen,
  type LoadConfig,
  type Loadgen,
  REST_AFTER_MS,
  runStep,
  type StepResult,
  startLoadgen,
  startPinger,
  updatesSent,
} from "../collab/loadRun";
import { machineInfo } from "../collab/report";
import type { HeapSnapshotReply } from "../collab/serverProbe";
import { type ServerHandle, startServer } from "../collab/servers";
import { SEED_TEXT } from "../collab/session";
import { rerunInSnapshot } from "../collab/snapshot";
import { tallyUpdates } from "../collab/updateCheck";
import { processMemories } from "../lib/processes";
import { type Summary, summarize } from "../lib/stats";
import { sleep } from "../lib/wait";
import { summarizeHeap } from "./heapSummary";
import { type Moment, type ScaleResults, type ServerWindow, writeReport } from "./report";

const env = process.env;
const outDir = env.BENCH_OUT ?? import.meta.dirname;

// Only re-render RESULTS.md from a results file (after a change to the report).
if (env.BENCH_REPORT) {
  writeReport(path.join(outDir, "RESULTS.md"), JSON.parse(readFileSync(env.BENCH_REPORT, "utf8")));
  process.exit(0);
}

rerunInSnapshot("scale/run.ts", outDir);

const sessions = Number(env.BENCH_SESSIONS ?? 2000);
const config = {
  sessions,
  clientsPerSession: 3,
  typingPercent: Number(env.BENCH_TYPING_PERCENT ?? 5),
  loadgens: Number(env.BENCH_LOADGENS ?? 4),
  /** Sessions connected at a time, spread over the load generators. */
  batch: Number(env.BENCH_BATCH ?? 50),
  /** A batch's sessions not synced by then count as failed. */
  batchTimeoutMs: 60_000,
  idleMs: Number(env.BENCH_IDLE_S ?? 30) * 1000,
  warmupMs: Number(env.BENCH_WARMUP_S ?? 10) * 1000,
  dwellMs: Number(env.BENCH_DWELL_S ?? 60) * 1000,
  // A snapshot of a large heap takes seconds of the server's loop and GBs here to read.
  heapSnapshot: env.BENCH_HEAP_SNAPSHOT ? env.BENCH_HEAP_SNAPSHOT === "1" : sessions <= 500,
};
const clients = config.sessions * config.clientsPerSession;

async function moment(server: ServerHandle): Promise<Moment> {
  const probe = await server.probe(true);
  const health: unknown = await (await fetch(server.healthUrl)).json();
  const live =
    typeof health === "object" && health !== null ? Reflect.get(health, "liveSessions") : undefined;
  const mb = (bytes: number) => bytes / 1024 / 1024;
  return {
    heapUsedMb: mb(probe.heapUsed),
    externalMb: mb(probe.external),
    rssMb: mb(probe.rss),
    pssMb: mb(probe.pss),
    processes: processMemories(server.pid),
    tcpSockets: probe.tcpSockets,
    fds: readdirSync(`/proc/${server.pid}/fd`).length,
    liveSessions: typeof live === "number" ? live : Number.NaN,
  };
}

async function heapSnapshot(server: ServerHandle, file: string): Promise<number> {
  const reply = await server.ask<HeapSnapshotReply>({ type: "heapSnapshot", file }, "heapSnapshot");
  return reply.ms;
}

/** Connects every session, `config.batch` at a time; the time of each batch and what failed. */
async function connectAll(server: ServerHandle, loadgens: Loadgen[], names: string[]) {
  const batchMs: number[] = [];
  let failed = 0;
  for (let start = 0; start < names.length; start += config.batch) {
    const started = performance.now();
    const batch = names.slice(start, start + config.batch).map((name, k) => ({ name, j: start + k }));
    const answers = await Promise.all(
      loadgens.map((lg, i) => {
        const mine = batch.filter(({ j }) => j % loadgens.length === i);
        return lg.ask<Connected>({
          type: "connect",
          system: "ours",
          url: server.url,
          names: mine.map((m) => m.name),
          seeds: mine.map((m) => m.j),
          seedText: SEED_TEXT,
          timeoutMs: config.batchTimeoutMs,
        });
      }),
    );
    failed += answers.reduce((sum, a) => sum + a.failed, 0);
    batchMs.push(performance.now() - started);
    if ((start / config.batch) % 10 === 9 || start + config.batch >= names.length)
      console.log(
        `[scale] ${Math.min(start + config.batch, names.length)} sessions connected, ${failed} failed`,
      );
  }
  return { batchMs: summarize(batchMs), failed };
}

/** The server for `ms` as it is: its event-loop delay, GC, CPU and HTTP round trip. */
async function window(server: ServerHandle, ms: number): Promise<ServerWindow> {
  await server.probe(false);
  const cpuBefore = server.cpuMs();
  const stopPinger = startPinger(server.healthUrl);
  await sleep(ms);
  const { loopDelay, gc } = await server.probe(false);
  const cpuPercent = ((server.cpuMs() - cpuBefore) / ms) * 100;
  const ping: Summary = await stopPinger();
  return { loopDelay, gc, cpuPercent, ping };
}

/** A fresh server with its sessions made (not yet loaded) and the load generators, for `body`. */
async function withServer<T>(
  body: (server: ServerHandle, loadgens: Loadgen[], names: string[]) => Promise<T>,
): Promise<T> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bench-scale-"));
  const server = await startServer("ours", { port: Number(env.BENCH_PORT ?? 4331), dataDir });
  const loadgens = Array.from({ length: config.loadgens }, startLoadgen);
  try {
    console.log(`[scale] creating ${config.sessions} sessions`);
    const names = await createDocuments(server, config.sessions, "scale");
    await sleep(2000);
    return await body(server, loadgens, names);
  } finally {
    await Promise.all(loadgens.map((lg) => closeLoadgen(lg.child)));
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The measured run: memory before and idle, the idle window, the typing step, memory after. */
async function measuredRun(
  server: ServerHandle,
  loadgens: Loadgen[],
  names: string[],
): Promise<ScaleResults> {
  const before = await moment(server);
  const atRest = await window(server, 10_000);
  const updatesBefore = await server.updates();
  const connectStarted = performance.now();
  const connect = await connectAll(server, loadgens, names);
  const connectMs = performance.now() - connectStarted;
  await sleep(5000);
  const idle = await moment(server);
  // The seed texts the first clients typed while connecting: every one applied, none refused.
  const connectUpdates = tallyUpdates(
    "scale",
    "connect",
    await updatesSent(loadgens),
    updatesBefore,
    await server.updates(),
  );
  console.log(`[scale] ${clients} clients idle:`, { ...idle, processes: idle.processes.length });
  const idleWindow = await window(server, config.idleMs);
  console.log("[scale] idle window", idleWindow);
  // Idle memory again once the server's documents rest: its idle compaction needs 10 s of quiet
  // after the last seed text, which the 5-s measure above comes before.
  await sleep(Math.max(0, REST_AFTER_MS - 5000 - config.idleMs));
  const rested = await moment(server);
  console.log(`[scale] ${clients} clients at rest:`, { ...rested, processes: rested.processes.length });
  const active = Math.max(1, Math.round((config.sessions * config.typingPercent) / 100));
  const loadConfig: LoadConfig = {
    sessions: config.sessions,
    steps: [active],
    warmupMs: config.warmupMs,
    dwellMs: config.dwellMs,
    loadgens: config.loadgens,
    seedText: SEED_TEXT,
    attempts: 1,
  };
  const typing: StepResult = await runStep(server, loadgens, active, loadConfig, "scale");
  console.log(
    "[scale] typing",
    JSON.stringify(typing, (k, v) => (k === "count" ? undefined : v)),
  );
  const after = await moment(server);
  return {
    date: new Date().toISOString(),
    commit: env.BENCH_SNAPSHOT ?? "unknown",
    machine: machineInfo(),
    limits: limits(server.pid),
    config: { ...config, clients },
    connect: { ms: connectMs, ...connect, updates: connectUpdates },
    before,
    atRest,
    idle,
    rested,
    idleWindow,
    typing,
    after,
  };
}

/**
 * The heap pass, on a server of its own: writing a snapshot leaves the allocator holding
 * tens of MB, which would count as the clients' RSS in the measured run.
 */
async function heapPass(server: ServerHandle, loadgens: Loadgen[], names: string[], dir: string) {
  await server.probe(true);
  const beforeMs = await heapSnapshot(server, path.join(dir, "before.heapsnapshot"));
  await connectAll(server, loadgens, names);
  // At rest, as the memory's second measure: the steady state of an idle session.
  await sleep(REST_AFTER_MS);
  const idleMs = await heapSnapshot(server, path.join(dir, "idle.heapsnapshot"));
  return [beforeMs, idleMs];
}

const results = await withServer(measuredRun);
if (config.heapSnapshot) {
  const dir = mkdtempSync(path.join(tmpdir(), "bench-scale-heap-"));
  results.snapshotMs = await withServer((server, loadgens, names) => heapPass(server, loadgens, names, dir));
  // Read after the server stopped: parsing a snapshot takes this process's CPU and memory.
  results.heap = await summarizeHeap(
    path.join(dir, "before.heapsnapshot"),
    path.join(dir, "idle.heapsnapshot"),
    clients,
  );
  if (env.BENCH_KEEP_SNAPSHOTS !== "1") rmSync(dir, { recursive: true, force: true });
  else console.log(`[scale] heap snapshots kept in ${dir}`);
}

/** The limits that bound how many clients the server process `pid` and this machine can hold. */
function limits(pid: number) {
  const read = (file: string) => readFileSync(file, "utf8").trim();
  const [portLow = 0, portHigh = 0] = read("/proc/sys/net/ipv4/ip_local_port_range").split(/\s+/).map(Number);
  const limitsFile = read(`/proc/${pid}/limits`);
  const openFiles = /Max open files\s+(\d+)\s+(\d+)/.exec(limitsFile);
  return {
    openFilesSoft: Number(openFiles?.[1] ?? Number.NaN),
    openFilesHard: Number(openFiles?.[2] ?? Number.NaN),
    ephemeralPorts: portHigh - portLow + 1,
    /** V8's heap limit for a process started with Node's defaults on this machine. */
    heapLimitMb: getHeapStatistics().heap_size_limit / 1024 / 1024,
    memoryMb: Number(/MemTotal:\s+(\d+)/.exec(read("/proc/meminfo"))?.[1] ?? Number.NaN) / 1024,
  };
}

const name = config.sessions === 2000 ? "results" : `results-${config.sessions}`;
mkdirSync(outDir, { recursive: true });
writeFileSync(path.join(outDir, `${name}.json`), `${JSON.stringify(results, null, 1)}\n`);
writeReport(path.join(outDir, "RESULTS.md"), results);
console.log(`wrote ${path.join(outDir, `${name}.json`)} and RESULTS.md`);
process.exit(0);
