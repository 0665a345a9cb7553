/**
 * The collaboration load benchmark: ours vs Hocuspocus vs the y-websocket server, each in memory
 * and storing every change, same clients, same machine, one run. `npm run bench:collab -w bench`
 * (see README.md for the knobs).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type ColdLoadResult, runColdLoad } from "./coldLoad";
import { type LoadConfig, type LoadResult, runLoad } from "./loadRun";
import { machineInfo, writeReport } from "./report";
import { SEED_TEXT } from "./session";
import { rerunInSnapshot } from "./snapshot";
import { DEFAULT_SYSTEMS, parseSystems, SYSTEMS } from "./systems";
import { generateTrace } from "./trace";
import { FILE } from "./typing";
import { workspaceSummary } from "./workspaceReport";
import { runWorkspace, type WorkspaceConfig } from "./workspaceRun";

const env = process.env;
const isQuick = env.BENCH_QUICK === "1";
const outDir = env.BENCH_OUT ?? import.meta.dirname;

// Only re-render RESULTS.md from a results.json (after a change to the report).
if (env.BENCH_REPORT) {
  writeReport(path.join(outDir, "RESULTS.md"), JSON.parse(readFileSync(env.BENCH_REPORT, "utf8")));
  process.exit(0);
}

// The main run's knobs, read before a snapshot is built so a bad one fails at once. An empty
// list of systems with DATABASE_URL set runs only ours on PostgreSQL.
const isWorkspace = env.BENCH_WORKSPACE === "1";
const systems = isWorkspace ? [] : parseSystems(env.BENCH_SYSTEMS ?? DEFAULT_SYSTEMS.join(","));
const sessions = Number(env.BENCH_SESSIONS ?? (isQuick ? 10 : 400));
const steps = isWorkspace
  ? []
  : parseSteps(env.BENCH_STEPS ?? (isQuick ? "5,10" : "25,100,200,400"), sessions);

// Measure one commit's production bundle, exported and built, while others edit the working tree.
rerunInSnapshot("collab/run.ts", outDir);

// Only the workspace measurements (issue 8): ours with one file vs a 200-file workspace.
if (isWorkspace) {
  const load: LoadConfig = {
    sessions: Number(env.BENCH_SESSIONS ?? (isQuick ? 4 : 25)),
    // BENCH_STEPS= (empty) measures joins and memory only.
    steps: (env.BENCH_STEPS ?? (isQuick ? "4" : "25"))
      .split(",")
      .map(Number)
      .filter((n) => n > 0),
    warmupMs: Number(env.BENCH_WARMUP_S ?? (isQuick ? 2 : 10)) * 1000,
    dwellMs: Number(env.BENCH_DWELL_S ?? (isQuick ? 5 : 30)) * 1000,
    loadgens: 2,
    attempts: Number(env.BENCH_ATTEMPTS ?? (isQuick ? 1 : 3)),
    seedText: SEED_TEXT,
  };
  const workspace: WorkspaceConfig = {
    files: Number(env.BENCH_FILES ?? 200),
    totalBytes: Number(env.BENCH_WORKSPACE_BYTES ?? 1024 * 1024),
    joins: Number(env.BENCH_JOINS ?? (isQuick ? 4 : 20)),
    concurrentJoins: 4,
    rounds: Number(env.BENCH_ROUNDS ?? (isQuick ? 1 : 2)),
  };
  const rounds = await runWorkspace(load, workspace);
  const results = {
    date: new Date().toISOString(),
    commit: env.BENCH_SNAPSHOT ?? "unknown",
    machine: machineInfo(),
    config: { ...load, seedText: `${load.seedText.length} chars`, workspace },
    rounds,
  };
  mkdirSync(path.join(outDir, "runs"), { recursive: true });
  const file = path.join(outDir, "runs", `workspace-${isQuick ? "quick" : results.date.slice(0, 10)}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 1)}\n`);
  console.log(workspaceSummary(results));
  console.log(`wrote ${file}`);
  process.exit(0);
}

const config: LoadConfig = {
  sessions,
  steps,
  warmupMs: Number(env.BENCH_WARMUP_S ?? (isQuick ? 2 : 10)) * 1000,
  dwellMs: Number(env.BENCH_DWELL_S ?? (isQuick ? 5 : 30)) * 1000,
  loadgens: 2,
  attempts: Number(env.BENCH_ATTEMPTS ?? (isQuick ? 1 : 3)),
  seedText: SEED_TEXT,
};
const traceOps = Number(env.BENCH_TRACE_OPS ?? (isQuick ? 20_000 : 259_778));
const restarts = Number(env.BENCH_RESTARTS ?? (isQuick ? 1 : 3));
// BENCH_COLD_ONLY=1: only the cold loads (issue 32's joins), no load steps.
const isColdOnly = env.BENCH_COLD_ONLY === "1";

const load: LoadResult[] = [];
if (!isColdOnly) for (const system of systems) load.push(await runLoad(system, system, config));
if (env.DATABASE_URL && !isColdOnly)
  load.push(await runLoad("ours", "ours (PostgreSQL)", config, { databaseUrl: env.DATABASE_URL }));

const trace = generateTrace(traceOps, 7);
// Our server takes the history in its main file's text, named by the file's id.
const traceFor = (textName: string) => (textName === FILE ? trace : generateTrace(traceOps, 7, textName));
console.log(
  `trace: ${trace.ops} ops in ${trace.chunks.length} updates, ${trace.stateBytes} bytes as one state`,
);
// An in-memory system has nothing to load after a restart: its storing form is loaded instead, once.
const cold: ColdLoadResult[] = [];
for (const system of new Set(systems.map((s) => SYSTEMS[s].persisted)))
  cold.push(await runColdLoad(system, traceFor, restarts));

const results = {
  date: new Date().toISOString(),
  commit: env.BENCH_SNAPSHOT ?? "unknown",
  machine: machineInfo(),
  config: { ...config, seedText: `${config.seedText.length} chars`, traceOps, restarts },
  trace: { ops: trace.ops, updates: trace.chunks.length, stateBytes: trace.stateBytes },
  load,
  cold,
};
const name = isColdOnly ? "results-cold" : isQuick ? "results-quick" : "results";
writeFileSync(path.join(outDir, `${name}.json`), `${JSON.stringify(results, null, 1)}\n`);
if (!isQuick && !isColdOnly) writeReport(path.join(outDir, "RESULTS.md"), results);
console.log(`wrote ${path.join(outDir, `${name}.json`)}`);
// Keep-alive HTTP agents and closed providers' timers would hold the process open a while.
process.exit(0);

/** The ramp: typing sessions per step, rising, each at most the sessions connected. */
function parseSteps(list: string, connected: number): number[] {
  if (!Number.isInteger(connected) || connected < 1)
    throw new Error(`BENCH_SESSIONS: ${env.BENCH_SESSIONS} is not a positive whole number`);
  const steps = list.split(",").map(Number);
  const isRamp = steps.every(
    (n, i) => Number.isInteger(n) && n > 0 && n <= connected && n > (steps[i - 1] ?? 0),
  );
  if (!isRamp)
    throw new Error(
      `BENCH_STEPS: "${list}" is not a rising list of typing sessions from 1 to BENCH_SESSIONS (${connected})`,
    );
  return steps;
}
