// Start-up of the server: launch to the first answered /api/health, for the production build
// (`node apps/server/dist/main.js`) against the TypeScript loader it replaced (`node --import
// tsx apps/server/src/main.ts`), each on a fresh and on an existing embedded database.
// Writes results.json and the part of RESULTS.md below its marker.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PORT = 3690;

const MODES = {
  build: ["apps/server/dist/main.js"],
  tsx: ["--import", "tsx", "apps/server/src/main.ts"],
} as const;
type Mode = keyof typeof MODES;

interface Sample {
  mode: Mode;
  database: "fresh" | "existing";
  readyMs: number;
  rssMb: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resident memory of a process, in MB (its own, not its children's). */
function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB$/m);
  return line ? Number(line[1]) / 1024 : Number.NaN;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

/** Launches the server and times it until /api/health answers. */
async function start(mode: Mode, dataDir: string): Promise<{ readyMs: number; rssMb: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, MODES[mode], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(PORT), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${PORT}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await sleep(5);
    }
    const readyMs = performance.now() - started;
    return { readyMs, rssMb: rssMb(child.pid ?? 0) };
  } finally {
    await stop(child);
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

const samples: Sample[] = [];
for (let run = 0; run < RUNS; run++) {
  // Alternating modes, so a slow phase of the machine touches both alike.
  for (const mode of Object.keys(MODES) as Mode[]) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "ensemble-bench-startup-"));
    try {
      samples.push({ mode, database: "fresh", ...(await start(mode, dataDir)) });
      samples.push({ mode, database: "existing", ...(await start(mode, dataDir)) });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

const rows: string[] = [];
const summary: Record<string, { readyMs: number; rssMb: number }> = {};
for (const database of ["fresh", "existing"] as const) {
  for (const mode of Object.keys(MODES) as Mode[]) {
    const mine = samples.filter((s) => s.mode === mode && s.database === database);
    const ready = median(mine.map((s) => s.readyMs));
    const rss = median(mine.map((s) => s.rssMb));
    summary[`${mode}/${database}`] = { readyMs: ready, rssMb: rss };
    const all = mine.map((s) => Math.round(s.readyMs)).join(", ");
    rows.push(`| ${database} | ${mode} | ${Math.round(ready)} | ${all} | ${Math.round(rss)} |`);
  }
  const ratio = (summary[`build/${database}`]?.readyMs ?? 0) / (summary[`tsx/${database}`]?.readyMs ?? 1);
  rows.push(`| ${database} | **build ÷ tsx** | **${ratio.toFixed(2)}×** | | |`);
}

const date = new Date().toISOString();
writeFileSync(
  path.join(import.meta.dirname, "results.json"),
  `${JSON.stringify({ date, samples, summary }, null, 2)}\n`,
);
const marker = "<!-- Everything below is written by run.ts. -->";
const resultsFile = path.join(import.meta.dirname, "RESULTS.md");
const head = readFileSync(resultsFile, "utf8").split(marker)[0] ?? "";
const body = [
  marker,
  "",
  `Run ${date} on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "unknown CPU"}), Node ${process.version}; ${RUNS} launches of each, medians.`,
  "",
  "| database | server | launch → /api/health answered, ms (median) | every launch, ms | resident memory at that moment, MB |",
  "|---|---|---|---|---|",
  ...rows,
  "",
].join("\n");
writeFileSync(resultsFile, `${head}${body}`);
console.log(body);
