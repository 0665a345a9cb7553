/**
 * Run Code benchmark (see README.md): the sandbox's per-run overhead against the bare
 * interpreter, side by side; a hello-world round trip through the HTTP API; throughput at
 * 1, 2, 4 and 8 concurrent clients. Everything goes through the production server's HTTP API.
 * Writes RESULTS.md beside this file (or into BENCH_OUT).
 */
import { execFileSync, spawn } from "node:child_process";
import { realpathSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type Language, LanguageSchema, type Runtime } from "@ensemble/protocol";
import { rerunInSnapshot } from "../collab/snapshot";
import { table } from "../lib/markdown";
import { quantile } from "../lib/stats";
import { ms } from "./format";
import { execute, type RunServer, runnerReadyLine, runtimesOf, startRunServer } from "./server";

const env = process.env;
const outDir = env.BENCH_OUT ?? import.meta.dirname;
// Measure one commit's production bundle, exported and built, while others edit the working tree.
rerunInSnapshot("execution/run.ts", outDir);

const RUNS = Number(env.BENCH_RUNS ?? 200);
const ROUND_TRIPS = Number(env.BENCH_ROUND_TRIPS ?? 100);
const THROUGHPUT_SECONDS = Number(env.BENCH_THROUGHPUT_SECONDS ?? 10);
const GAP_MS = Number(env.BENCH_GAP_MS ?? 100);

/**
 * The bare commands, and what the server runs for each language: the same interpreter. The
 * overhead table measures the languages listed here (issue 29's other languages: not yet).
 */
const BARE: Partial<Record<Language, { command: string; args: string[]; label: string }>> = {
  javascript: { command: "node", args: ["-e", "0"], label: "`node -e 0`" },
  python: { command: "python3", args: ["-c", "pass"], label: "`python3 -c pass`" },
};

/**
 * The interpreter the server runs: the first `command` on PATH whose real path is under /usr
 * (the only tree the sandbox binds in), checked against the version the server reports.
 */
function bareBinary(runtime: Runtime, command: string): string {
  for (const dir of (env.PATH ?? "/usr/bin:/bin").split(":")) {
    let real: string;
    try {
      real = realpathSync(path.join(dir, command));
    } catch {
      continue;
    }
    if (!real.startsWith("/usr/")) continue;
    const version = execFileSync(real, ["--version"], { encoding: "utf8" }).trim();
    if (!version.endsWith(runtime.version))
      throw new Error(`${real} is ${version}, the server runs ${runtime.language} ${runtime.version}`);
    return real;
  }
  throw new Error(`no ${command} under /usr on PATH`);
}

function spawnBare(file: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    // The sandbox starts from a cleared environment; so does the bare run, for fairness.
    const child = spawn(file, args, { stdio: "ignore", env: { PATH: "/usr/bin:/bin", LANG: "C.UTF-8" } });
    child.on("error", reject);
    child.on("close", () => resolve(performance.now() - started));
  });
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * `gapMs` is an idle pause before every run, bare and sandboxed alike: a person clicking Run,
 * whose slot has its launcher parked (see parkSandbox). With 0 the runs follow each other at
 * once and a sandboxed run may wait for its slot's launcher to be parked. The server has one
 * slot (RUN_CONCURRENCY 1) at `RUN_NICE` `nice`; the sandboxed time is the answer's
 * `wall_time` (the sandbox's own measure), beside the HTTP round trip around it.
 */
async function overhead(server: RunServer, nice: number, gapMs: number) {
  const rows: string[][] = [];
  for (const runtime of await runtimesOf(server)) {
    const language = LanguageSchema.parse(runtime.language);
    const bareRun = BARE[language];
    if (!bareRun) continue;
    const binary = bareBinary(runtime, bareRun.command);
    // The first run of a fresh server may wait for the runner's start-up check.
    await execute(server, language, "");
    const bare: number[] = [];
    const boxed: number[] = [];
    const trips: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      // Interleaved, so both see the same machine.
      await pause(gapMs);
      bare.push(await spawnBare(binary, bareRun.args));
      await pause(gapMs);
      const run = await execute(server, language, "");
      boxed.push(run.wallMs);
      trips.push(run.roundTripMs);
    }
    rows.push([
      `${bareRun.label} (${runtime.language} ${runtime.version})`,
      String(nice),
      String(gapMs),
      ms(quantile(bare, 0.5)),
      ms(quantile(bare, 0.99)),
      ms(quantile(boxed, 0.5)),
      ms(quantile(boxed, 0.99)),
      ms(quantile(boxed, 0.5) - quantile(bare, 0.5)),
      ms(quantile(boxed, 0.99) - quantile(bare, 0.99)),
      ms(quantile(trips, 0.5)),
      ms(quantile(trips, 0.99)),
    ]);
  }
  return rows;
}

const HELLO = {
  javascript: 'console.log("Hello, world!")',
  python: 'print("Hello, world!")',
} as const;

/** A hello world through POST /api/v2/execute: its round trip in ms, checked for its output. */
async function hello(server: RunServer, language: keyof typeof HELLO): Promise<number> {
  const run = await execute(server, language, HELLO[language]);
  if (run.stdout !== "Hello, world!\n") throw new Error(`${language} printed ${JSON.stringify(run.stdout)}`);
  return run.roundTripMs;
}

async function roundTrips(server: RunServer) {
  const rows: string[][] = [];
  for (const gapMs of [GAP_MS, 0]) {
    for (const language of ["javascript", "python"] as const) {
      const samples: number[] = [];
      for (let i = 0; i < ROUND_TRIPS; i++) {
        await pause(gapMs);
        samples.push(await hello(server, language));
      }
      rows.push([
        language,
        String(gapMs),
        String(ROUND_TRIPS),
        ms(quantile(samples, 0.5)),
        ms(quantile(samples, 0.99)),
      ]);
    }
  }
  return rows;
}

async function throughput(server: RunServer) {
  const rows: string[][] = [];
  for (const language of ["python", "javascript"] as const) {
    for (const clients of [1, 2, 4, 8]) {
      const samples: number[] = [];
      const deadline = performance.now() + THROUGHPUT_SECONDS * 1000;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: clients }, async () => {
          while (performance.now() < deadline) samples.push(await hello(server, language));
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      rows.push([
        language,
        String(clients),
        String(samples.length),
        (samples.length / seconds).toFixed(1),
        ms(quantile(samples, 0.5)),
        ms(quantile(samples, 0.99)),
      ]);
    }
  }
  return rows;
}

function machine(): string {
  const sh = (cmd: string, args: string[]) => {
    try {
      return execFileSync(cmd, args).toString().trim();
    } catch {
      return "n/a";
    }
  };
  const cpu = os.cpus()[0]?.model ?? "n/a";
  return [
    `- Date: ${new Date().toISOString()}`,
    `- nproc: ${sh("nproc", [])}; CPU: ${cpu}`,
    `- Memory (\`free -g\`):\n\n\`\`\`\n${sh("free", ["-g"])}\n\`\`\``,
    `- Node ${process.version}; kernel ${os.release()}; ${sh("bwrap", ["--version"])}`,
    `- Load average at start: ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(", ")}`,
  ].join("\n");
}

async function main() {
  const header = machine();
  console.log(header);
  const { cgroups } = await runnerReadyLine();
  console.log(`\nsandbox overhead over ${RUNS} runs each (the runner's cgroups: ${cgroups})...`);
  // At the default nice 10 the run yields to everything else on a busy machine; nice 0 shows
  // what the sandbox itself costs. One slot, as one person's runs would use.
  const rows: string[][] = [];
  for (const nice of [10, 0]) {
    const server = await startRunServer({ RUN_NICE: String(nice), RUN_CONCURRENCY: "1" });
    try {
      rows.push(...(await overhead(server, nice, GAP_MS)));
      if (nice === 10) rows.push(...(await overhead(server, nice, 0)));
    } finally {
      await server.close();
    }
  }
  // The table's order: both at the idle gap, then back to back.
  const ordered = [...rows.filter((r) => r[2] !== "0"), ...rows.filter((r) => r[2] === "0")];
  const overheadTable = table(
    [
      "command",
      "RUN_NICE",
      "gap",
      "bare p50",
      "bare p99",
      "sandboxed p50",
      "sandboxed p99",
      "overhead p50",
      "overhead p99",
      "HTTP round trip p50",
      "HTTP round trip p99",
    ],
    ordered,
  );
  console.log(overheadTable);
  // The server's default concurrency: one slot per core.
  const concurrency = os.availableParallelism();
  const server = await startRunServer();
  try {
    console.log(`\nhello world through POST /api/v2/execute, ${ROUND_TRIPS} runs each...`);
    const roundTripTable = table(["language", "gap", "runs", "p50", "p99"], await roundTrips(server));
    console.log(roundTripTable);
    console.log(`\nthroughput, ${THROUGHPUT_SECONDS} s per step (RUN_CONCURRENCY ${concurrency})...`);
    const throughputTable = table(
      ["language", "clients", "runs", "runs/s", "latency p50", "latency p99"],
      await throughput(server),
    );
    console.log(throughputTable);
    const results = `# Run Code benchmark results

Produced by \`node --import tsx bench/execution/run.ts\` (see README.md) against the production
server of \`${env.BENCH_SNAPSHOT ?? "unknown"}\`, over its HTTP API. Times in ms.

${header}
- Load average at end: ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(", ")}
- Sandbox: parked launcher.py (in the slot's cgroups **${cgroups}**) → bwrap, full chain per run
  (cgroup limit and meters, slot uid, rlimits, Node's stdio preload, Python's
  \`-E -s -u -B\`, output collection, cgroup release).

## Sandbox overhead (${RUNS} runs each, interleaved with the bare run)

The sandboxed time is the \`wall_time\` the server answers for an empty \`main.js\`/\`main.py\`
sent to \`POST /api/v2/execute\` (one slot, \`RUN_CONCURRENCY\` 1): the sandbox's own measure,
from handing the parked launcher its plan (after the run's cgroup limit is set) through bwrap
and the interpreter until it exits and its output is collected, in whole ms. It leaves out
taking the slot's parked launcher (waiting for it, when it is not parked yet) and reading the
cgroup meters after, which the HTTP round trip beside it includes, with authentication, the
queue and the JSON. Cleaning the slot and parking its next launcher happen after the answer,
as always.
The bare time is \`spawn\` of the same interpreter with a clean environment. "Overhead" is sandboxed minus bare at the same
percentile. "gap" is an idle pause before every run, bare and sandboxed alike (a person
clicking Run): the slot's launcher is then parked, the common case. With gap 0 the runs follow
each other at once, so a sandboxed run may still wait for its launcher to be parked (spawn and
cgroup join, about 20 ms). With the default \`RUN_NICE\` 10 the sandboxed run yields the CPU to
every other process (the server first); \`RUN_NICE\` 0 shows the cost of the sandbox itself.

${overheadTable}

## Hello world through the HTTP API (one client, sequential)

\`POST /api/v2/execute\` with a bearer token over loopback, from request to parsed JSON, with an
idle gap before each request (a person clicking Run) and with none (the next request as soon
as the answer arrives, so it waits for its slot's launcher to be parked).

${roundTripTable}

## Throughput (${THROUGHPUT_SECONDS} s per step, hello world, RUN_CONCURRENCY ${concurrency})

Each client sends its next run as soon as the previous answer arrives.

${throughputTable}
`;
    // compiled.ts writes its own section at the end; it stays.
    const previous = await fs.readFile(path.join(outDir, "RESULTS.md"), "utf8").catch(() => "");
    const compiledAt = previous.indexOf("## Compiled languages");
    const kept = compiledAt >= 0 ? `\n${previous.slice(compiledAt)}` : "";
    await fs.writeFile(path.join(outDir, "RESULTS.md"), results + kept);
    console.log(`\nwrote ${path.join(outDir, "RESULTS.md")}`);
  } finally {
    await server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
