import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as Y from "yjs";
import { generateTrace } from "../collab/trace";
import { median } from "../lib/stats";
import { sleep } from "../lib/wait";
import { BenchClient, createSession, TRANSPORT } from "./client";
import { buildServer, type RunningServer, startServer } from "./server";

/**
 * Cold load of a long history on our production server: the 259,778-op trace is typed into a
 * session's main file, stored (and compacted when the session unloads), then the server is
 * restarted `BENCH_RESTARTS` times and each time measured, as server CPU (its whole process
 * tree, /proc) and wall time:
 *
 * - first client: connect → the whole text arrived, and → a first edit of it applied;
 * - second client on the loaded document (after that edit): connect → the whole text arrived.
 *
 * `BENCH_REF` (default HEAD) is the commit measured, built outside the working tree;
 * `DATABASE_URL` runs it on PostgreSQL instead of the embedded database.
 */
const ref = process.env.BENCH_REF ?? "HEAD";
const restarts = Number(process.env.BENCH_RESTARTS ?? 7);
const ops = Number(process.env.BENCH_OPS ?? 259_778);
const port = Number(process.env.BENCH_PORT ?? 4330);
const databaseUrl = process.env.DATABASE_URL || undefined;

interface Sample {
  firstTextCpuMs: number;
  /** Of which the server's own process (the rest: its database and other children). */
  firstTextOwnCpuMs: number;
  /** Start → socket connected, → joined, → lane open, → the server's answer's first message received (unread). */
  firstSteps: number[];
  firstTextMs: number;
  firstEditCpuMs: number;
  firstEditMs: number;
  secondTextCpuMs: number;
  secondTextOwnCpuMs: number;
  secondSteps: number[];
  secondTextMs: number;
}

/** The client's marks, in ms since `started`. */
function steps(client: BenchClient, started: number): number[] {
  const { connected, joined, laneOpen, answer } = client.marks;
  return [connected, joined, laneOpen, answer].map((at) => Math.round((at ?? Number.NaN) - started));
}

/**
 * Waits until the server's process tree is idle (under 10 ms of CPU in 500 ms): after /api/health
 * answers, the embedded PostgreSQL and the server's helpers keep starting up for 2-3 s
 * (300-400 ms of CPU), which would otherwise be charged to the first client.
 */
async function untilQuiet(server: RunningServer) {
  for (let i = 0; i < 60; i++) {
    const before = server.cpuMs();
    await sleep(500);
    if (server.cpuMs() - before <= 10) return;
  }
  throw new Error("the server did not settle within 30 s");
}

/** Waits until no session is loaded (the last one unloaded, so its document is compacted). */
async function untilUnloaded(server: RunningServer) {
  for (let i = 0; i < 600; i++) {
    const body = (await (await fetch(`${server.url}/api/health`)).json()) as { liveSessions?: number };
    if (body.liveSessions === 0) return;
    await sleep(100);
  }
  throw new Error("the session did not unload");
}

/** Types the history into a new session through a client, as an editor would, and returns its text. */
async function storeHistory(server: RunningServer, sessionId: string): Promise<string> {
  const writer = new BenchClient(server.url, sessionId);
  await writer.until((text) => text !== undefined);
  const trace = generateTrace(ops, 7, writer.mainTextName());
  for (const chunk of trace.chunks) {
    Y.applyUpdate(writer.doc, chunk, "bench");
    await new Promise((resolve) => setImmediate(resolve));
  }
  const expected = writer.mainText()?.toString() ?? "";
  const check = new BenchClient(server.url, sessionId);
  await check.until((t) => t?.toString() === expected);
  await writer.close();
  await check.close();
  await untilUnloaded(server);
  return expected;
}

async function measure(server: RunningServer, sessionId: string, expected: string) {
  const started = performance.now();
  const cpu = server.cpuMs();
  const ownCpu = server.ownCpuMs();
  const first = new BenchClient(server.url, sessionId);
  await first.until((t) => t?.toString() === expected);
  const firstTextMs = performance.now() - started;
  const firstTextCpuMs = server.cpuMs() - cpu;
  const firstTextOwnCpuMs = server.ownCpuMs() - ownCpu;
  await first.editAccepted();
  const firstEditMs = performance.now() - started;
  const firstEditCpuMs = server.cpuMs() - cpu;
  const edited = `/${expected}`;
  const secondStarted = performance.now();
  const secondCpu = server.cpuMs();
  const secondOwnCpu = server.ownCpuMs();
  const second = new BenchClient(server.url, sessionId);
  await second.until((t) => t?.toString() === edited);
  const sample: Sample = {
    firstTextCpuMs,
    firstTextOwnCpuMs,
    firstSteps: steps(first, started),
    firstTextMs,
    firstEditCpuMs,
    firstEditMs,
    secondTextCpuMs: server.cpuMs() - secondCpu,
    secondTextOwnCpuMs: server.ownCpuMs() - secondOwnCpu,
    secondSteps: steps(second, secondStarted),
    secondTextMs: performance.now() - secondStarted,
  };
  await first.close();
  await second.close();
  await untilUnloaded(server);
  return { sample, expected: edited };
}

const build = buildServer(ref);
const dataDir = mkdtempSync(path.join(os.tmpdir(), "ensemble-coldload-data-"));
const options = { port, dataDir, databaseUrl };
const samples: Sample[] = [];
try {
  let server = await startServer(build.bundle, options);
  const sessionId = await createSession(server.url, "coldload");
  let expected = await storeHistory(server, sessionId);
  await server.stop();
  console.log(`stored ${ops} ops: ${expected.length} chars`);
  for (let i = 0; i < restarts; i++) {
    server = await startServer(build.bundle, options);
    await untilQuiet(server);
    const result = await measure(server, sessionId, expected);
    expected = result.expected;
    samples.push(result.sample);
    console.log(JSON.stringify(result.sample));
    await server.stop();
  }
} finally {
  build.remove();
  rmSync(dataDir, { recursive: true, force: true });
}

const medianOf = (pick: (s: Sample) => number) => median(samples.map(pick));
const medians = {
  firstTextCpuMs: medianOf((s) => s.firstTextCpuMs),
  firstTextOwnCpuMs: medianOf((s) => s.firstTextOwnCpuMs),
  firstTextMs: medianOf((s) => s.firstTextMs),
  firstEditCpuMs: medianOf((s) => s.firstEditCpuMs),
  firstEditMs: medianOf((s) => s.firstEditMs),
  secondTextCpuMs: medianOf((s) => s.secondTextCpuMs),
  secondTextOwnCpuMs: medianOf((s) => s.secondTextOwnCpuMs),
  secondTextMs: medianOf((s) => s.secondTextMs),
  firstSteps: [0, 1, 2, 3].map((i) => medianOf((s) => s.firstSteps[i] ?? Number.NaN)),
  secondSteps: [0, 1, 2, 3].map((i) => medianOf((s) => s.secondSteps[i] ?? Number.NaN)),
};
const machine = {
  cpus: os.cpus().length,
  model: os.cpus()[0]?.model ?? "unknown",
  node: process.version,
  loadavg: readFileSync("/proc/loadavg", "utf8").trim(),
};
const result = {
  commit: build.commit,
  ref,
  transport: TRANSPORT,
  database: databaseUrl ? "postgres" : "embedded",
  ops,
  date: new Date().toISOString(),
  machine,
  medians,
  samples,
};
console.log(JSON.stringify({ medians }, null, 2));
const out = process.env.BENCH_OUT;
if (out) writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
// Socket.io clients and fetch keep-alive sockets can outlive their close: end here.
process.exit(0);
