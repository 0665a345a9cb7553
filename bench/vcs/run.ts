/**
 * The version-control benchmark (issue 9): `git status` and `add` + `commit` through our socket
 * API on a 200-file workspace with 10 changed files, against the bare git commands on a copy
 * of the same tree, in the same run. `npm run bench:vcs -w bench` (see README.md).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { STARTER_CODE } from "@ensemble/protocol";
import { machineBusyMs, waitForQuiet } from "../collab/machineLoad";
import { generateProject } from "../collab/project";
import { between, seededRandom } from "../collab/random";
import { machineInfo } from "../collab/report";
import { rerunInSnapshot } from "../collab/snapshot";
import { rssBytes, treeCpuMs } from "../lib/processes";
import { sleep, waitFor } from "../lib/wait";
import { headTree } from "./bareRepo";
import { openHostSession } from "./hostSession";
import { startOurServer } from "./ourServer";
import { summarizeSegments } from "./phases";
import { renderResults, type SideName, type SideResult, type VcsResults } from "./report";
import { anchorSide, type Measured, oursSide, type Side } from "./sides";
import { startSmallAnchor } from "./smallAnchor";

const env = process.env;
const outDir = env.BENCH_OUT ?? import.meta.dirname;

// Measure one commit's production bundle, exported and built, while others edit the working tree.
rerunInSnapshot("vcs/run.ts", outDir);

const config = {
  files: Number(env.BENCH_FILES ?? 200),
  totalBytes: Number(env.BENCH_WORKSPACE_BYTES ?? 400 * 1024),
  changed: Number(env.BENCH_CHANGED ?? 10),
  warmup: Number(env.BENCH_WARMUP ?? 5),
  iterations: Number(env.BENCH_ITERATIONS ?? 50),
  // After the edits reach the server: its 20 ms store tick runs before the timed requests.
  settleMs: 100,
};

// The production server in its own process; its preloaded hooks trace its calls under the
// repositories and run the anchor that starts git from the server's process.
const ours = await startOurServer();
const { server, reposDir, trace } = ours;
await trace.watch(reposDir);
const anchorsDir = mkdtempSync(path.join(tmpdir(), "ensemble-bench-vcs-"));

const project = generateProject(
  config.files - 1,
  config.totalBytes - Buffer.byteLength(STARTER_CODE.javascript),
  9,
);
const setupStarted = performance.now();
const session = await openHostSession(server.url, project);
await session.git({ op: "add", paths: [] });
await session.git({ op: "commit", message: "Initial files" });
const initial = session.files();
// Two anchors on copies of the tree: git started from a small process (a person's shell),
// and from this one, which holds the server (so it pays the server's cost of starting git).
const small = await startSmallAnchor(path.join(anchorsDir, "small"), initial);
const inServer = await ours.anchor(path.join(anchorsDir, "in-server"), initial);
const sides: Record<SideName, Side> = {
  ours: oursSide(session, trace),
  bare: anchorSide(small),
  bareInServer: anchorSide(inServer),
};
console.log(
  `[vcs] ${config.files} files created and committed in ${(performance.now() - setupStarted).toFixed(0)} ms`,
);

/** `count` distinct entries of `list` (a partial Fisher–Yates shuffle). */
function pick(list: readonly string[], count: number, random: () => number): string[] {
  const copy = [...list];
  for (let i = 0; i < count; i++) {
    const j = between(random, i, copy.length - 1);
    [copy[i], copy[j]] = [copy[j] as string, copy[i] as string];
  }
  return copy.slice(0, count);
}

// The bench's own tree holds the server, the anchor process and whatever they start.
const benchCpuMs = () => treeCpuMs(process.pid);

const measured = { ours: [] as Measured[], bare: [] as Measured[], bareInServer: [] as Measured[] };
const order = Object.keys(sides) as SideName[];
const random = seededRandom(23);
const paths = [...initial.keys()];
// Other people's builds share the two cores: start when the machine is quiet, and say how
// busy it was meanwhile.
const busyBeforePercent = await waitForQuiet(90_000);
const started = new Date().toISOString();
const loadBefore = os.loadavg();
let cpuAtStart = { machine: 0, bench: 0, at: 0 };
for (let i = 0; i < config.warmup + config.iterations; i++) {
  if (i === config.warmup)
    cpuAtStart = { machine: machineBusyMs(), bench: benchCpuMs(), at: performance.now() };
  const changed = pick(paths, config.changed, random);
  const before = await server.updates();
  const edited = session.edit(changed, random, `edit${i}`);
  // The server has applied the edits (one update per file) before anything is timed.
  await waitFor(
    async () => (await server.updates()).applied >= before.applied + changed.length,
    10_000,
    "the server to apply the edits",
  );
  const after = await server.updates();
  if (after.refused > before.refused || after.applied > before.applied + changed.length)
    throw new Error(
      `the server applied ${after.applied - before.applied} and refused ${after.refused - before.refused} of ${changed.length} edits`,
    );
  await small.write(edited);
  await inServer.write(edited);
  await sleep(config.settleMs);
  // Each side goes first in turn, so none always runs on the warmest cache.
  for (let k = 0; k < order.length; k++) {
    const name = order[(i + k) % order.length] as SideName;
    const result = await sides[name].measure(changed, `Iteration ${i}`);
    if (i >= config.warmup) measured[name].push(result);
  }
  const done = i - config.warmup + 1;
  if (done > 0 && done % 10 === 0) console.log(`[vcs] ${done} iterations`);
}

// All three repositories must hold the same files at the end, or the comparison was unfair.
const trees = await Promise.all(
  [
    path.join(reposDir, session.sessionId),
    path.join(anchorsDir, "small"),
    path.join(anchorsDir, "in-server"),
  ].map(headTree),
);
if (new Set(trees).size !== 1)
  throw new Error(`the repositories ended on different trees: ${trees.join(", ")}`);

const elapsedMs = performance.now() - cpuAtStart.at;
const otherCpuPercent =
  ((machineBusyMs() - cpuAtStart.machine - (benchCpuMs() - cpuAtStart.bench)) / elapsedMs) * 100;
const gitVersion = spawnSync("git", ["--version"], { encoding: "utf8" }).stdout.trim();
const summarize = (runs: Measured[]): SideResult => ({
  status: runs.map((r) => r.status),
  addCommit: runs.map((r) => r.addCommit),
  segments: Object.fromEntries(
    Object.keys(runs[0]?.segments ?? {}).map((request) => [
      request,
      summarizeSegments(runs.map((r) => r.segments[request] ?? [])),
    ]),
  ),
});
const results: VcsResults = {
  date: started,
  commit: env.BENCH_SNAPSHOT ?? "working tree",
  machine: {
    ...machineInfo(),
    git: gitVersion,
    rssMb: Math.round(rssBytes(server.pid) / 1024 / 1024),
    // fork copies the page tables: their size is what starting a process costs the server.
    pageTablesKb: Number(
      /VmPTE:\s*(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, "utf8"))?.[1] ?? Number.NaN,
    ),
    anchorRssMb: small.rssMb(),
    loadBefore,
    loadAfter: os.loadavg(),
    busyBeforePercent: Math.round(busyBeforePercent),
    otherCpuPercent: Math.round(otherCpuPercent),
  },
  config: { ...config, projectBytes: [...session.files().values()].reduce((n, t) => n + t.length, 0) },
  sides: {
    ours: summarize(measured.ours),
    bare: summarize(measured.bare),
    bareInServer: summarize(measured.bareInServer),
  },
  headTree: trees[0] ?? "",
};
await session.close();
await small.close();
await inServer.close();
await ours.close();
rmSync(anchorsDir, { recursive: true, force: true });

mkdirSync(path.join(outDir, "runs"), { recursive: true });
const file = path.join(outDir, "runs", `vcs-${started.slice(0, 10)}.json`);
writeFileSync(file, `${JSON.stringify(results, null, 1)}\n`);
const resultsFile = path.join(outDir, "RESULTS.md");
const marker = "<!-- Everything below is written by run.ts. -->";
let handWritten = "# Version-control benchmark: results\n";
try {
  handWritten = readFileSync(resultsFile, "utf8").split(marker)[0] ?? handWritten;
} catch {
  // The first run writes the file.
}
writeFileSync(resultsFile, `${handWritten.trimEnd()}\n\n${marker}\n\n${renderResults(results)}`);
console.log(renderResults(results));
console.log(`wrote ${file} and ${resultsFile}`);
process.exit(0);
