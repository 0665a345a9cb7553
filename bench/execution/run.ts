/**
 * Run Code benchmark (see README.md): the sandbox's per-run overhead against the bare
 * interpreter, side by side; a hello-world round trip through the HTTP API; throughput at
 * 1, 2, 4 and 8 concurrent clients. Writes RESULTS.md beside this file.
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { createApp } from "../../apps/server/src/app";
import { openDatabase } from "../../apps/server/src/db/index";
import { migrate } from "../../apps/server/src/db/migrate";
import { loadConfig } from "../../apps/server/src/env";
import { createLocalRunner } from "../../apps/server/src/features/execution/local";
import { createLogger } from "../../apps/server/src/logger";
import { ms, percentile } from "./stats";

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const ROUND_TRIPS = Number(process.env.BENCH_ROUND_TRIPS ?? 100);
const THROUGHPUT_SECONDS = Number(process.env.BENCH_THROUGHPUT_SECONDS ?? 10);
const GAP_MS = Number(process.env.BENCH_GAP_MS ?? 100);
const quiet = createLogger("silent", new Writable({ write: (_c, _e, done) => done() }));

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
 * once and a sandboxed run may wait for its slot's launcher to be parked.
 */
async function overhead(nice: number, gapMs: number) {
  const config = loadConfig({ LOG_LEVEL: "silent", RUN_NICE: String(nice) });
  const runner = createLocalRunner(config, quiet, 1);
  const state = await runner.ready;
  if (!state.available) throw new Error(state.reason);
  const rows: string[][] = [];
  for (const runtime of state.runtimes) {
    const bareArgs = runtime.id === "javascript" ? ["-e", "0"] : ["-c", "pass"];
    const bare: number[] = [];
    const boxed: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      // Interleaved, so both see the same machine.
      await pause(gapMs);
      bare.push(await spawnBare(runtime.binary, bareArgs));
      await pause(gapMs);
      const started = performance.now();
      const result = await runner.run(
        {
          runtime,
          files: [{ name: runtime.defaultFile, content: Buffer.from("") }],
          args: [],
          stdin: "\n",
          timeoutMs: 10_000,
          cpuTimeMs: 10_000,
          memoryBytes: config.RUN_MEMORY_LIMIT_BYTES,
        },
        0,
      );
      if (result.code !== 0) throw new Error(`sandboxed run failed: ${result.stderr}`);
      boxed.push(performance.now() - started);
    }
    const label = runtime.id === "javascript" ? "`node -e 0`" : "`python3 -c pass`";
    rows.push([
      `${label} (${runtime.language} ${runtime.version})`,
      String(nice),
      String(gapMs),
      ms(percentile(bare, 50)),
      ms(percentile(bare, 99)),
      ms(percentile(boxed, 50)),
      ms(percentile(boxed, 99)),
      ms(percentile(boxed, 50) - percentile(bare, 50)),
      ms(percentile(boxed, 99) - percentile(bare, 99)),
    ]);
  }
  await runner.close();
  return { rows, cgroups: state.cgroups };
}

async function startServer() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "ensemble-bench-exec-"));
  const config = loadConfig({
    LOG_LEVEL: "silent",
    DATA_DIR: dataDir,
    WEB_DIST: path.join(dataDir, "none"),
    JWT_SECRET: "bench-secret-that-is-long-enough-0123456789",
    RUN_RATE_MAX: "1000000",
    RUN_QUEUE_MAX: "64",
  });
  const db = await openDatabase({});
  await migrate(db);
  const app = createApp({
    config,
    db,
    logger: quiet,
    jwtSecret: new TextEncoder().encode(config.JWT_SECRET),
  });
  await new Promise<void>((resolve) => app.server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const register = await fetch(`${url}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "bench", email: "bench@example.test", password: "pa55word!" }),
  });
  const { token } = (await register.json()) as { token: string };
  return {
    url,
    token,
    concurrency: config.RUN_CONCURRENCY,
    async close() {
      await app.close();
      await new Promise((r) => app.server.close(r));
      await db.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

const HELLO = {
  javascript: 'console.log("Hello, world!")',
  python: 'print("Hello, world!")',
} as const;

async function execute(
  server: { url: string; token: string },
  language: keyof typeof HELLO,
): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${server.url}/api/v2/execute`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${server.token}` },
    body: JSON.stringify({ language, version: "*", files: [{ content: HELLO[language] }] }),
  });
  const body = (await res.json()) as { run?: { stdout: string } };
  if (res.status !== 200 || body.run?.stdout !== "Hello, world!\n") {
    throw new Error(`bad answer ${res.status} ${JSON.stringify(body)}`);
  }
  return performance.now() - started;
}

async function roundTrips(server: { url: string; token: string }) {
  const rows: string[][] = [];
  for (const gapMs of [GAP_MS, 0]) {
    for (const language of ["javascript", "python"] as const) {
      const samples: number[] = [];
      for (let i = 0; i < ROUND_TRIPS; i++) {
        await pause(gapMs);
        samples.push(await execute(server, language));
      }
      rows.push([
        language,
        String(gapMs),
        String(ROUND_TRIPS),
        ms(percentile(samples, 50)),
        ms(percentile(samples, 99)),
      ]);
    }
  }
  return rows;
}

async function throughput(server: { url: string; token: string }) {
  const rows: string[][] = [];
  for (const language of ["python", "javascript"] as const) {
    for (const clients of [1, 2, 4, 8]) {
      const samples: number[] = [];
      const deadline = performance.now() + THROUGHPUT_SECONDS * 1000;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: clients }, async () => {
          while (performance.now() < deadline) samples.push(await execute(server, language));
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      rows.push([
        language,
        String(clients),
        String(samples.length),
        (samples.length / seconds).toFixed(1),
        ms(percentile(samples, 50)),
        ms(percentile(samples, 99)),
      ]);
    }
  }
  return rows;
}

function table(header: string[], rows: string[][]): string {
  return [
    `| ${header.join(" | ")} |`,
    `|${header.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ].join("\n");
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
  console.log(`\nsandbox overhead over ${RUNS} runs each...`);
  // At the default nice 10 the run yields to everything else on a busy machine; nice 0 shows
  // what the sandbox itself costs.
  const atDefault = await overhead(10, GAP_MS);
  const atZero = await overhead(0, GAP_MS);
  const backToBack = await overhead(10, 0);
  const cgroups = atDefault.cgroups;
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
    ],
    [...atDefault.rows, ...atZero.rows, ...backToBack.rows],
  );
  console.log(overheadTable);
  const server = await startServer();
  try {
    console.log(`\nhello world through POST /api/v2/execute, ${ROUND_TRIPS} runs each...`);
    const roundTripTable = table(["language", "gap", "runs", "p50", "p99"], await roundTrips(server));
    console.log(roundTripTable);
    console.log(`\nthroughput, ${THROUGHPUT_SECONDS} s per step (RUN_CONCURRENCY ${server.concurrency})...`);
    const throughputTable = table(
      ["language", "clients", "runs", "runs/s", "latency p50", "latency p99"],
      await throughput(server),
    );
    console.log(throughputTable);
    const results = `# Run Code benchmark results

Produced by \`node --import tsx bench/execution/run.ts\` (see README.md). Times in ms.

${header}
- Load average at end: ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(", ")}
- Sandbox: parked launcher.py (in the slot's cgroups **${cgroups}**) → bwrap, full chain per run
  (cgroup limit and meters, slot uid, rlimits, Node's stdio preload, Python's
  \`-E -s -u -B\`, output collection, cgroup release).

## Sandbox overhead (${RUNS} runs each, interleaved with the bare run)

The sandboxed time is the runner's whole \`run()\` (an empty \`main.js\`/\`main.py\`), from the
server's side: taking the slot's parked launcher, the cgroup limit and meters, the launch plan,
bwrap, the interpreter and output collection. Cleaning the slot and parking its next launcher
happen after \`run()\` returns, as in the server, where the answer does not wait for them.
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

## Throughput (${THROUGHPUT_SECONDS} s per step, hello world, RUN_CONCURRENCY ${server.concurrency})

Each client sends its next run as soon as the previous answer arrives.

${throughputTable}
`;
    await fs.writeFile(path.join(import.meta.dirname, "RESULTS.md"), results);
    console.log("\nwrote bench/execution/RESULTS.md");
  } finally {
    await server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
