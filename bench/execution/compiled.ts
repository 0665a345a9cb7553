/**
 * Compiled languages (see README.md): the sandbox's overhead over the same compile and run
 * commands on the bare host, per language; a session's re-run of an unchanged hello world,
 * which reuses the compiled program, end to end over the socket; and 20 C++ compiles at once
 * against /api/health. Rewrites the "Compiled languages" section of RESULTS.md beside this
 * file (or in BENCH_OUT).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Ack, ExecuteResponseSchema, LANGUAGE_RECORDS, type LanguageRecord } from "@ensemble/protocol";
import { createSession } from "../collab/documents";
import { joinSession, ourSocket } from "../collab/ourSocket";
import { rerunInSnapshot } from "../collab/snapshot";
import { table } from "../lib/markdown";
import { quantile } from "../lib/stats";
import { sleep } from "../lib/wait";
import { ms } from "./format";
import { type RunServer, runtimesOf, startRunServer } from "./server";

const env = process.env;
const outDir = env.BENCH_OUT ?? import.meta.dirname;
rerunInSnapshot("execution/compiled.ts", outDir);

const RUNS = Number(env.BENCH_RUNS ?? 30);
const RERUNS = Number(env.BENCH_RERUNS ?? 30);
const CONCURRENT = Number(env.BENCH_CONCURRENT ?? 20);
const GAP_MS = 100;
/** `runCode` is a command: 5 a second per connection, with a burst of 15 (realtime/admission.ts). */
const RERUN_GAP_MS = 250;
/** The languages the issue's re-run target names, when the server offers them. */
const RERUN_LANGUAGES = ["c", "c++", "go", "rust", "java"];

const compiled = LANGUAGE_RECORDS.filter((r: LanguageRecord) => r.compile !== undefined) as LanguageRecord[];

/** The record's command with its placeholders filled for a project of one file in `root`. */
function expand(args: readonly string[], root: string, record: LanguageRecord): string[] {
  const file = path.join(root, "src", record.mainFile);
  const values: Record<string, string> = {
    file,
    stem: record.mainFile.replace(/\.[^.]+$/, ""),
    dir: path.join(root, "src"),
    out: path.join(root, "out"),
    sources: file,
  };
  return args.map((arg) =>
    arg.replace(/\{(file|stem|dir|out|sources)\}/g, (_, name: string) => values[name] ?? ""),
  );
}

function spawnTimed(argv: string[], cwd: string, environment: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const [file, ...args] = argv;
    if (!file) throw new Error("empty command");
    const started = performance.now();
    const child = spawn(file, args, { cwd, stdio: ["ignore", "ignore", "pipe"], env: environment });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve(performance.now() - started)
        : reject(new Error(`${argv.join(" ")}: ${code} ${stderr}`)),
    );
  });
}

/**
 * The starter compiled and run on the host, as the sandbox does it: the same commands and
 * environment. With `oneCore`, pinned to one core (taskset), as a run's cgroup allows it one
 * core's time: the anchor that leaves only the sandbox's own cost.
 */
async function bare(record: LanguageRecord, oneCore: boolean): Promise<number> {
  const root = mkdtempSync(path.join(os.tmpdir(), "ensemble-bare-"));
  try {
    mkdirSync(path.join(root, "src"));
    mkdirSync(path.join(root, "out"));
    mkdirSync(path.join(root, "tmp"));
    writeFileSync(path.join(root, "src", record.mainFile), record.starter);
    const environment: NodeJS.ProcessEnv = { PATH: "/usr/bin:/bin", HOME: root, LANG: "C.UTF-8" };
    // The sandbox's /tmp is new for each run (Go's GOCACHE, GHC's objects): so is the bare run's.
    // (The bare run's own folders are under the host's /tmp too: those stay as they are.)
    const ownTmp = (args: string[]) =>
      args.map((arg) => (arg.includes(root) ? arg : arg.replace(/(^|=|-J)\/tmp(?=\/|$)/, `$1${root}/tmp`)));
    for (const [name, value] of Object.entries(record.env ?? {}))
      environment[name] = ownTmp(expand([value], root, record))[0] ?? "";
    const pin = oneCore ? ["taskset", "-c", "0"] : [];
    const compile = record.compile ? [...pin, record.compile.command, ...record.compile.args] : [];
    const run = [...pin, record.run.command, ...record.run.args];
    const compileMs = await spawnTimed(ownTmp(expand(compile, root, record)), root, environment);
    return compileMs + (await spawnTimed(ownTmp(expand(run, root, record)), root, environment));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The starter through POST /api/v2/execute: the compile's and the run's wall time, and the round trip. */
async function boxed(server: RunServer, record: LanguageRecord): Promise<{ wallMs: number; tripMs: number }> {
  const started = performance.now();
  const res = await fetch(`${server.url}/api/v2/execute`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${server.token}` },
    body: JSON.stringify({
      language: record.id,
      version: "*",
      files: [{ name: record.mainFile, content: record.starter }],
    }),
  });
  const body = ExecuteResponseSchema.parse(await res.json());
  const tripMs = performance.now() - started;
  if (body.compile?.code !== 0 || body.run?.stdout.trim() !== "Hello, world!")
    throw new Error(`${record.id}: ${JSON.stringify(body).slice(0, 500)}`);
  return { wallMs: (body.compile.wall_time ?? Number.NaN) + (body.run.wall_time ?? Number.NaN), tripMs };
}

async function overhead(server: RunServer, records: LanguageRecord[]): Promise<string[][]> {
  const rows: string[][] = [];
  for (const record of records) {
    // Warm both: the first compile reads the toolchain from disk.
    await bare(record, false);
    await boxed(server, record);
    const bareMs: number[] = [];
    const oneCoreMs: number[] = [];
    const boxedMs: number[] = [];
    const trips: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await sleep(GAP_MS);
      bareMs.push(await bare(record, false));
      await sleep(GAP_MS);
      oneCoreMs.push(await bare(record, true));
      await sleep(GAP_MS);
      const { wallMs, tripMs } = await boxed(server, record);
      boxedMs.push(wallMs);
      trips.push(tripMs);
    }
    const p50 = (values: number[]) => quantile(values, 0.5);
    rows.push([
      record.id,
      ms(p50(bareMs)),
      ms(p50(oneCoreMs)),
      ms(p50(boxedMs)),
      ms(p50(boxedMs) - p50(bareMs)),
      ms(p50(boxedMs) - p50(oneCoreMs)),
      (p50(boxedMs) / p50(oneCoreMs)).toFixed(2),
      ms(quantile(boxedMs, 0.99) - quantile(oneCoreMs, 0.99)),
      ms(p50(trips)),
    ]);
    console.log(rows.at(-1)?.join(" | "));
  }
  return rows;
}

/** A session's Run Code of an unchanged hello world: the first compiles, the others reuse the program. */
async function reruns(server: RunServer, records: LanguageRecord[]): Promise<string[][]> {
  const rows: string[][] = [];
  const sessionId = await createSession(server.url, server.token, "compiled bench");
  const socket = ourSocket(server.url, server.token);
  await joinSession(socket, sessionId);
  try {
    for (const record of records) {
      const file = `bench/${record.mainFile}`;
      const created: Ack<unknown> = await socket.emitWithAck("createFile", {
        sessionId,
        path: file,
        kind: "file",
        content: record.starter,
      });
      if (!created.ok) throw new Error(`createFile: ${created.error.message}`);
      const runOnce = async () => {
        const started = performance.now();
        const ack: Ack<{ compile?: { cached?: boolean }; run?: { stdout: string } }> = await socket
          .timeout(60_000)
          .emitWithAck("runCode", { sessionId, file });
        const took = performance.now() - started;
        if (!ack.ok) throw new Error(`${record.id} runCode: ${ack.error.message}`);
        return { took, cached: ack.data.compile?.cached === true };
      };
      const first = await runOnce();
      const again: number[] = [];
      let cachedAll = true;
      for (let i = 0; i < RERUNS; i++) {
        await sleep(RERUN_GAP_MS);
        const run = await runOnce();
        again.push(run.took);
        cachedAll &&= run.cached;
      }
      rows.push([
        record.id,
        ms(first.took),
        ms(quantile(again, 0.5)),
        ms(quantile(again, 0.99)),
        cachedAll ? "yes" : "no",
      ]);
      console.log(rows.at(-1)?.join(" | "));
    }
  } finally {
    socket.close();
  }
  return rows;
}

/** CONCURRENT C++ compiles at once, each a little different (no cache), with /api/health polled throughout. */
async function burst(server: RunServer): Promise<string[][]> {
  const program = (i: number) =>
    `#include <iostream>\n#include <map>\n#include <string>\n#include <vector>\nint main() { std::map<std::string, std::vector<int>> m; m["x${i}"].push_back(${i}); std::cout << m.size() << std::endl; }\n`;
  let done = false;
  const probes: number[] = [];
  const probing = (async () => {
    while (!done) {
      const started = performance.now();
      const res = await fetch(`${server.url}/api/health`);
      probes.push(res.ok ? performance.now() - started : Number.POSITIVE_INFINITY);
      await sleep(20);
    }
  })();
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: CONCURRENT }, async (_, i) => {
      const res = await fetch(`${server.url}/api/v2/execute`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${server.token}` },
        body: JSON.stringify({
          language: "c++",
          version: "*",
          files: [{ name: "main.cpp", content: program(i) }],
        }),
      });
      const body: unknown = await res.json();
      const parsed = ExecuteResponseSchema.safeParse(body);
      return {
        status: res.status,
        ok: parsed.success && parsed.data.run?.stdout === "1\n",
        ms: performance.now() - started,
      };
    }),
  );
  done = true;
  await probing;
  const completed = answers.filter((a) => a.status === 200 && a.ok).length;
  const refused = answers.filter((a) => a.status === 429).length;
  return [
    [
      String(CONCURRENT),
      String(completed),
      String(refused),
      String(CONCURRENT - completed - refused),
      ms(Math.max(...answers.map((a) => a.ms))),
      String(probes.length),
      ms(quantile(probes, 0.5)),
      ms(quantile(probes, 0.99)),
    ],
  ];
}

async function main() {
  const loadBefore = os.loadavg().map((n) => n.toFixed(2));
  const server = await startRunServer({ RUN_CONCURRENCY: "1" });
  let overheadRows: string[][];
  let rerunRows: string[][];
  let offered: LanguageRecord[];
  try {
    const runtimes = await runtimesOf(server);
    offered = compiled.filter((r) => runtimes.some((rt) => rt.language === r.id));
    console.log(`compiled languages offered: ${offered.map((r) => r.id).join(", ")}`);
    overheadRows = await overhead(server, offered);
    rerunRows = await reruns(
      server,
      offered.filter((r) => RERUN_LANGUAGES.includes(r.id)),
    );
  } finally {
    await server.close();
  }
  // The server's default concurrency and queue: one slot per core.
  const busy = await startRunServer({ RUN_QUEUE_MAX: "16" });
  let burstRows: string[][];
  try {
    burstRows = await burst(busy);
  } finally {
    await busy.close();
  }
  const section = `## Compiled languages

Produced by \`npm run bench:compiled -w bench\` (\`execution/compiled.ts\`) against the production
server of \`${env.BENCH_SNAPSHOT ?? "unknown"}\`. Date ${new Date().toISOString()}; ${os.availableParallelism()} cores
(${os.cpus()[0]?.model ?? "n/a"}); load average ${loadBefore.join(", ")} at start, ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(", ")} at end. Times in ms.

### Sandbox overhead over the bare host (${RUNS} runs each, interleaved, ${GAP_MS} ms apart)

Each language's starter (hello world). Bare: the record's compile command, then its run
command, spawned on the host in a temporary folder with the same environment; "one core": the
same pinned to one core with \`taskset -c 0\`, as a run's cgroup grants one core's time.
Sandboxed: the answer's \`compile.wall_time + run.wall_time\` from \`POST /api/v2/execute\`
(one slot, \`RUN_CONCURRENCY\` 1), which includes the shell between the stages. Target: overhead
p50 ≤ 10 ms; the ratio and p99 are against the one-core anchor.

${table(["language", "bare p50", "bare, one core p50", "sandboxed p50", "over bare p50", "over one core p50", "ratio (one core) p50", "over one core p99", "HTTP round trip p50"], overheadRows)}

### A session's re-run of unchanged sources (${RERUNS} re-runs each, end to end)

\`runCode\` over the socket, from emit to ack, for a hello world in a session: the first run
compiles, each re-run reuses the program (\`compile.cached\`). Target: re-run p50 ≤ 100 ms.

${table(["language", "first run (compiles)", "re-run p50", "re-run p99", "every re-run cached"], rerunRows)}

### ${CONCURRENT} C++ compiles at once

${CONCURRENT} different C++ programs (\`<iostream>\`, \`<map>\`, \`<string>\`, \`<vector>\`) sent at once to a
server with its default concurrency (one slot per core) and a queue of 16, \`/api/health\`
polled every 20 ms meanwhile. Target: all complete or are queued with 429, health p99 ≤ 50 ms.

${table(["sent", "completed", "429", "other", "last answer", "health probes", "health p50", "health p99"], burstRows)}
`;
  console.log(section);
  const file = path.join(outDir, "RESULTS.md");
  const existing = existsSync(file) ? readFileSync(file, "utf8") : "";
  const at = existing.indexOf("## Compiled languages");
  writeFileSync(file, `${at >= 0 ? existing.slice(0, at) : `${existing.trimEnd()}\n\n`}${section}`);
  console.log(`wrote ${file}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
