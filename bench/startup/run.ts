// Start-up of the server: launch to the first answered /api/health, and the memory of the whole
// server (every process: the server, its embedded PostgreSQL, its helper processes) then and
// once its helpers have started, before any session. For the production build (`node
// apps/server/dist/main.js`) and the TypeScript loader it replaced (`node --import tsx
// apps/server/src/main.ts`), each on a fresh and an existing embedded database; with
// BENCH_DATABASE_URL, the build on that PostgreSQL server too; with BENCH_BEFORE (another
// build's main.js), that build on an embedded database as well.
// Writes results.json and the part of RESULTS.md below its marker.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type TreeMemory, treeMemory } from "../lib/processes";
import { startServer } from "../lib/server";
import { median } from "../lib/stats";
import { sleep } from "../lib/wait";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PORT = 3690;
// Long enough for the helper processes (code execution's spawner and its warm launchers).
const SETTLE_MS = 3000;

const MODES: Record<string, string[]> = {
  build: ["apps/server/dist/main.js"],
  tsx: ["--import", "tsx", "apps/server/src/main.ts"],
};
if (process.env.BENCH_BEFORE) MODES.before = [process.env.BENCH_BEFORE];
type Database = "fresh" | "existing" | "server";

interface Sample {
  mode: string;
  database: Database;
  readyMs: number;
  /** At the first answered /api/health. */
  ready: TreeMemory;
  /** SETTLE_MS later, still before any session. */
  settled: TreeMemory;
}

/** Launches the server, times it until /api/health answers, and reads its memory. */
async function start(mode: string, env: Record<string, string>): Promise<Omit<Sample, "mode" | "database">> {
  const started = performance.now();
  const server = await startServer({ port: PORT, args: MODES[mode] ?? [], env, pollMs: 5 });
  try {
    const readyMs = performance.now() - started;
    const ready = treeMemory(server.pid);
    await sleep(SETTLE_MS);
    return { readyMs, ready, settled: treeMemory(server.pid) };
  } finally {
    await server.stop();
  }
}

const samples: Sample[] = [];
for (let run = 0; run < RUNS; run++) {
  // Alternating modes, so a slow phase of the machine touches both alike.
  for (const mode of Object.keys(MODES)) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "ensemble-bench-startup-"));
    try {
      samples.push({ mode, database: "fresh", ...(await start(mode, { DATA_DIR: dataDir })) });
      samples.push({ mode, database: "existing", ...(await start(mode, { DATA_DIR: dataDir })) });
      if (mode === "build" && process.env.BENCH_DATABASE_URL) {
        const env = { DATA_DIR: dataDir, DATABASE_URL: process.env.BENCH_DATABASE_URL };
        samples.push({ mode, database: "server", ...(await start(mode, env)) });
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

const mb = (value: number) => String(Math.round(value));
const rows: string[] = [];
const summary: Record<string, { readyMs: number; ready: TreeMemory; settled: TreeMemory }> = {};
for (const database of ["fresh", "existing", "server"] as const) {
  for (const mode of Object.keys(MODES)) {
    const mine = samples.filter((s) => s.mode === mode && s.database === database);
    if (mine.length === 0) continue;
    const pick = (of: (s: Sample) => number) => median(mine.map(of));
    const entry = {
      readyMs: pick((s) => s.readyMs),
      ready: {
        processes: pick((s) => s.ready.processes),
        mainRssMb: pick((s) => s.ready.mainRssMb),
        rssMb: pick((s) => s.ready.rssMb),
        pssMb: pick((s) => s.ready.pssMb),
      },
      settled: {
        processes: pick((s) => s.settled.processes),
        mainRssMb: pick((s) => s.settled.mainRssMb),
        rssMb: pick((s) => s.settled.rssMb),
        pssMb: pick((s) => s.settled.pssMb),
      },
    };
    summary[`${mode}/${database}`] = entry;
    const all = mine.map((s) => Math.round(s.readyMs)).join(", ");
    rows.push(
      `| ${database} | ${mode} | ${Math.round(entry.readyMs)} | ${all} | ${mb(entry.ready.mainRssMb)} | ${mb(entry.ready.rssMb)} / ${mb(entry.ready.pssMb)} (${entry.ready.processes}) | ${mb(entry.settled.rssMb)} / ${mb(entry.settled.pssMb)} (${entry.settled.processes}) |`,
    );
  }
  const build = summary[`build/${database}`]?.readyMs;
  const tsx = summary[`tsx/${database}`]?.readyMs;
  if (build && tsx) rows.push(`| ${database} | **build ÷ tsx** | **${(build / tsx).toFixed(2)}×** | | | | |`);
}

const date = new Date().toISOString();
writeFileSync(
  path.join(import.meta.dirname, "results.json"),
  `${JSON.stringify({ date, settleMs: SETTLE_MS, samples, summary }, null, 2)}\n`,
);
const marker = "<!-- Everything below is written by run.ts. -->";
const resultsFile = path.join(import.meta.dirname, "RESULTS.md");
const head = readFileSync(resultsFile, "utf8").split(marker)[0] ?? "";
const body = [
  marker,
  "",
  `Run ${date} on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "unknown CPU"}), Node ${process.version}; ${RUNS} launches of each, medians. Memory in MB: summed RSS / summed PSS (processes), at the first answered /api/health and ${SETTLE_MS / 1000} s later (helper processes started), before any session.`,
  "",
  "| database | server | launch → /api/health answered, ms (median) | every launch, ms | main process RSS then | whole server then | whole server settled |",
  "|---|---|---|---|---|---|---|",
  ...rows,
  "",
].join("\n");
writeFileSync(resultsFile, `${head}${body}`);
console.log(body);
