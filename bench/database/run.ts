// The server under database load: while clients read sessions as fast as they can (each
// request two queries), a probe asks /api/health every 20 ms; its latency is how long the event
// loop was busy, the reads' latency is the database's. Run against the production build on its
// embedded PostgreSQL; when BENCH_BEFORE names another build's main.js (PGlite in a worker
// thread), against it too; with BENCH_DATABASE_URL, the build on that PostgreSQL server too.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type TreeMemory, treeMemory } from "../lib/processes";
import { BENCH_LIMITS_ENV, SERVER_MAIN, startServer } from "../lib/server";
import { quantile } from "../lib/stats";
import { sleep } from "../lib/wait";

const PORT = 3790;
const URL_BASE = `http://127.0.0.1:${PORT}`;
const LOAD_MS = Number(process.env.BENCH_LOAD_MS ?? 10_000);
const READERS = 8;

const BUILD = SERVER_MAIN;
const servers: { name: string; main: string; env: Record<string, string> }[] = [
  { name: "embedded PostgreSQL, child process (this build)", main: BUILD, env: {} },
];
if (process.env.BENCH_BEFORE)
  servers.unshift({
    name: "PGlite in a worker thread (BENCH_BEFORE)",
    main: process.env.BENCH_BEFORE,
    env: {},
  });
if (process.env.BENCH_DATABASE_URL)
  servers.push({
    name: "PostgreSQL server at BENCH_DATABASE_URL (this build)",
    main: BUILD,
    env: { DATABASE_URL: process.env.BENCH_DATABASE_URL },
  });

async function post(pathname: string, body: unknown, token?: string) {
  const response = await fetch(`${URL_BASE}${pathname}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Record<string, unknown>;
}

async function measure(main: string, env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "ensemble-bench-db-"));
  const server = await startServer({
    port: PORT,
    args: [main],
    env: { DATA_DIR: dataDir, ...BENCH_LIMITS_ENV, ...env },
  });
  try {
    const user = await post("/api/auth/register", {
      name: "bench",
      email: `bench-${Date.now()}@example.test`,
      password: "pa55word!",
    });
    const created = await post("/api/session/create", { title: "bench" }, String(user.token));
    const sessionId = String(created.session_id);
    const stopAt = Date.now() + LOAD_MS;
    const reads: number[] = [];
    const readers = Array.from({ length: READERS }, async () => {
      while (Date.now() < stopAt) {
        const sent = performance.now();
        // As the host: a participant's read, with the participants' list.
        const response = await fetch(`${URL_BASE}/api/session/${sessionId}`, {
          headers: { authorization: `Bearer ${String(user.token)}` },
        });
        await response.arrayBuffer();
        if (response.ok) reads.push(performance.now() - sent);
      }
    });
    const probe: number[] = [];
    const prober = (async () => {
      while (Date.now() < stopAt) {
        const sent = performance.now();
        await fetch(`${URL_BASE}/api/health`).then((r) => r.arrayBuffer());
        probe.push(performance.now() - sent);
        await sleep(20);
      }
    })();
    await Promise.all([...readers, prober]);
    return {
      readsPerSecond: Math.round(reads.length / (LOAD_MS / 1000)),
      read: { p50: quantile(reads, 0.5), p99: quantile(reads, 0.99) },
      memory: treeMemory(server.pid),
      probe: {
        samples: probe.length,
        p50: quantile(probe, 0.5),
        p99: quantile(probe, 0.99),
        max: Math.max(...probe),
      },
    };
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

interface Result {
  name: string;
  readsPerSecond: number;
  read: Record<string, number>;
  probe: Record<string, number>;
  memory: TreeMemory;
}
const results: Result[] = [];
for (const server of servers)
  results.push({ name: server.name, ...(await measure(server.main, server.env)) });

const date = new Date().toISOString();
writeFileSync(
  path.join(import.meta.dirname, "results.json"),
  `${JSON.stringify({ date, results }, null, 2)}\n`,
);
const rows = results.map(
  (r) =>
    `| ${r.name} | ${r.readsPerSecond} | ${r.read.p50?.toFixed(1)} | ${r.read.p99?.toFixed(1)} | ${r.probe.p50?.toFixed(1)} | ${r.probe.p99?.toFixed(1)} | ${r.probe.max?.toFixed(1)} | ${r.probe.samples} | ${Math.round(r.memory.rssMb)} / ${Math.round(r.memory.pssMb)} |`,
);
const marker = "<!-- Everything below is written by run.ts. -->";
const file = path.join(import.meta.dirname, "RESULTS.md");
const head = readFileSync(file, "utf8").split(marker)[0] ?? "";
const body = [
  marker,
  "",
  `Run ${date} on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "unknown CPU"}), Node ${process.version}; ${READERS} readers for ${LOAD_MS / 1000} s each.`,
  "",
  "| server | session reads per second | read p50 ms | read p99 ms | /api/health p50 ms | p99 ms | max ms | probes | whole server at the end, RSS / PSS MB |",
  "|---|---|---|---|---|---|---|---|---|",
  ...rows,
  "",
].join("\n");
writeFileSync(file, `${head}${body}`);
console.log(body);
