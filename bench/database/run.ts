// The event loop under database load: while clients read sessions as fast as they can
// (each request two queries), a probe asks /api/health every 20 ms; its latency is how long
// the event loop was busy. Run against the production build (PGlite in a worker thread) and,
// when BENCH_BEFORE names another build's main.js (PGlite on the event loop), against it too.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PORT = 3790;
const URL_BASE = `http://127.0.0.1:${PORT}`;
const LOAD_MS = Number(process.env.BENCH_LOAD_MS ?? 10_000);
const READERS = 8;

const servers: { name: string; main: string }[] = [
  { name: "PGlite in a worker thread (this build)", main: path.join(ROOT, "apps/server/dist/main.js") },
];
if (process.env.BENCH_BEFORE)
  servers.unshift({ name: "PGlite on the event loop (BENCH_BEFORE)", main: process.env.BENCH_BEFORE });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
};

async function start(main: string, dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [main], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(PORT), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${main} exited with ${child.exitCode}`);
    if (
      await fetch(`${URL_BASE}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return child;
    await sleep(20);
  }
}

async function post(pathname: string, body: unknown, token?: string) {
  const response = await fetch(`${URL_BASE}${pathname}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Record<string, unknown>;
}

async function measure(main: string) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "ensemble-bench-db-"));
  const child = await start(main, dataDir);
  try {
    const user = await post("/api/auth/register", {
      name: "bench",
      email: "bench@example.test",
      password: "pa55word!",
    });
    const created = await post("/api/session/create", { title: "bench" }, String(user.token));
    const sessionId = String(created.session_id);
    const stopAt = Date.now() + LOAD_MS;
    let reads = 0;
    const readers = Array.from({ length: READERS }, async () => {
      while (Date.now() < stopAt) {
        const response = await fetch(`${URL_BASE}/api/session/${sessionId}`);
        if (response.ok) reads++;
        await response.arrayBuffer();
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
      readsPerSecond: Math.round(reads / (LOAD_MS / 1000)),
      probe: {
        samples: probe.length,
        p50: quantile(probe, 0.5),
        p99: quantile(probe, 0.99),
        max: Math.max(...probe),
      },
    };
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const results: { name: string; readsPerSecond: number; probe: Record<string, number> }[] = [];
for (const server of servers) results.push({ name: server.name, ...(await measure(server.main)) });

const date = new Date().toISOString();
writeFileSync(
  path.join(import.meta.dirname, "results.json"),
  `${JSON.stringify({ date, results }, null, 2)}\n`,
);
const rows = results.map(
  (r) =>
    `| ${r.name} | ${r.readsPerSecond} | ${r.probe.p50?.toFixed(1)} | ${r.probe.p99?.toFixed(1)} | ${r.probe.max?.toFixed(1)} | ${r.probe.samples} |`,
);
const marker = "<!-- Everything below is written by run.ts. -->";
const file = path.join(import.meta.dirname, "RESULTS.md");
const head = readFileSync(file, "utf8").split(marker)[0] ?? "";
const body = [
  marker,
  "",
  `Run ${date} on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "unknown CPU"}), Node ${process.version}; ${READERS} readers for ${LOAD_MS / 1000} s each.`,
  "",
  "| server | session reads per second | /api/health p50 ms | p99 ms | max ms | probes |",
  "|---|---|---|---|---|---|",
  ...rows,
  "",
].join("\n");
writeFileSync(file, `${head}${body}`);
console.log(body);
