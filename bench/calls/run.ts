/**
 * Calls benchmark (see README.md): time from Join call to the first decoded remote video
 * frame over fresh joins, and the browser's CPU during 2- and 4-person calls, in Debian's
 * Chromium with fake devices on loopback. Writes results.json and RESULTS.md beside this file.
 */
import { execSync } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Browser, chromium } from "playwright-core";
import { CHROMIUM_E2E_FLAGS, CHROMIUM_PATH } from "../lib/chromium";
import { measureCpu, processTree } from "./cpu";
import { type JoinSample, timeJoin } from "./join";
import { type LinkStats, Participant } from "./participant";
import { type CallsResults, type CpuScenario, machineInfo, renderResults } from "./report";
import { type BenchServer, createHostedSession, startServer } from "./server";

const env = process.env;
const PORT = Number(env.BENCH_PORT ?? 3480);
const JOINS = Number(env.BENCH_JOINS ?? 20);
const POLL_MS = Number(env.BENCH_POLL_MS ?? 10);
const JOIN_TIMEOUT_MS = Number(env.BENCH_JOIN_TIMEOUT_MS ?? 15_000);
const SETTLE_MS = Number(env.BENCH_SETTLE_MS ?? 1000);
const CPU_SECONDS = Number(env.BENCH_CPU_SECONDS ?? 20);
const CPU_WARMUP_SECONDS = Number(env.BENCH_CPU_WARMUP_SECONDS ?? 5);
const OUT_DIR = env.BENCH_OUT ?? import.meta.dirname;

const ROOT = path.resolve(import.meta.dirname, "../..");
const sh = (command: string) => execSync(command, { encoding: "utf8", cwd: ROOT }).trim();
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const isChromium = (comm: string) => comm.startsWith("chrom");

/** Everything this run started, by group: Chromium, the server, and this process (with tsx's esbuild). */
function cpuGroups(server: BenchServer) {
  return {
    browser: () => processTree(process.pid, [server.pid]).filter((p) => isChromium(p.comm)),
    server: () => processTree(server.pid),
    bench: () => processTree(process.pid, [server.pid]).filter((p) => !isChromium(p.comm)),
  };
}

async function joinPhase(browser: Browser, server: BenchServer) {
  const host = await createHostedSession(server.url, "joins");
  const anchor = await Participant.open(browser, server.url, host.sessionId, host);
  await anchor.join();
  const samples: JoinSample[] = [];
  const cpu = await measureCpu(cpuGroups(server), async () => {
    for (let i = 1; i <= JOINS; i++) {
      const joiner = await Participant.open(browser, server.url, host.sessionId);
      // A person reads the page before clicking; the editor's own start-up work is done by then.
      await pause(SETTLE_MS);
      const sample = await timeJoin(joiner, anchor, { pollMs: POLL_MS, timeoutMs: JOIN_TIMEOUT_MS });
      samples.push(sample);
      console.log(
        sample.failure
          ? `join ${i}: FAILED ${sample.failure}`
          : `join ${i}: first frame ${sample.firstFrameMs.toFixed(0)} ms, connected ${sample.connectedMs.toFixed(0)} ms`,
      );
      await joiner.close();
      // The next joiner must find the anchor alone, as the first one did.
      await anchor.receivingFrom(0);
    }
  });
  await anchor.close();
  return { samples, cpu };
}

/** Decoded frames per link of each page, keyed by page and peer. */
async function framesDecoded(people: Participant[]) {
  const all = await Promise.all(people.map((p) => p.stats()));
  return all.flatMap((links, i) => links.map((l: LinkStats) => ({ key: `${i}:${l.peerId}`, link: l })));
}

/** `count` people in one session: a window with the editors only, then one with all in the call. */
async function cpuScenarios(browser: Browser, server: BenchServer, count: number): Promise<CpuScenario[]> {
  const host = await createHostedSession(server.url, `cpu${count}`);
  const people = [await Participant.open(browser, server.url, host.sessionId, host)];
  for (let i = 1; i < count; i++) people.push(await Participant.open(browser, server.url, host.sessionId));
  const scenarios: CpuScenario[] = [];
  const measure = async (inCall: boolean) => {
    await pause(CPU_WARMUP_SECONDS * 1000);
    const before = await framesDecoded(people);
    const cpu = await measureCpu(cpuGroups(server), () => pause(CPU_SECONDS * 1000));
    const after = await framesDecoded(people);
    const links = after.map(({ key, link }) => {
      const earlier = before.find((b) => b.key === key)?.link.video.framesDecoded ?? 0;
      return {
        fps: (link.video.framesDecoded - earlier) / cpu.seconds,
        frameWidth: link.video.frameWidth,
      };
    });
    const label = `${count} people, ${inCall ? "all in the call" : "editors open, no call"}`;
    scenarios.push({ label, participants: count, inCall, window: cpu, links });
    console.log(label, JSON.stringify(cpu.groups.browser));
  };
  await measure(false);
  for (const person of people) await person.join();
  for (const person of people) await person.receivingFrom(count - 1);
  await measure(true);
  for (const person of people) await person.close();
  return scenarios;
}

const machine = machineInfo();
const date = new Date().toISOString();
const commit = sh("git rev-parse --short HEAD");
const isDirty = sh("git status --porcelain -- apps packages") !== "";
// The server serves whatever apps/web/dist-e2e holds: say when it predates the web app's last commit.
const webBuild = {
  builtAt: statSync(path.join(ROOT, "apps/web/dist-e2e/index.html")).mtime.toISOString(),
  lastCommitAt: new Date(sh("git log -1 --format=%cI -- apps/web packages")).toISOString(),
};
if (webBuild.builtAt < webBuild.lastCommitAt)
  console.warn(
    `apps/web/dist-e2e (${webBuild.builtAt}) is older than the last web commit: run npm run build:e2e`,
  );
const server = await startServer(PORT);
let browser: Browser | undefined;
try {
  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_E2E_FLAGS,
  });
  const joins = await joinPhase(browser, server);
  const cpu = [...(await cpuScenarios(browser, server, 2)), ...(await cpuScenarios(browser, server, 4))];
  const results: CallsResults = {
    date,
    commit,
    isDirty,
    webBuild,
    machine: { ...machine, loadAverageAtEnd: os.loadavg() },
    chromium: browser.version(),
    config: {
      joins: JOINS,
      pollMs: POLL_MS,
      joinTimeoutMs: JOIN_TIMEOUT_MS,
      settleMs: SETTLE_MS,
      cpuSeconds: CPU_SECONDS,
      cpuWarmupSeconds: CPU_WARMUP_SECONDS,
      args: CHROMIUM_E2E_FLAGS,
    },
    joins: joins.samples,
    joinPhaseCpu: joins.cpu,
    cpu,
  };
  writeFileSync(path.join(OUT_DIR, "results.json"), `${JSON.stringify(results, null, 1)}\n`);
  const resultsFile = path.join(OUT_DIR, "RESULTS.md");
  const marker = "<!-- Everything below is written by run.ts. -->";
  let handWritten = "# Calls benchmark: results\n";
  try {
    handWritten = readFileSync(resultsFile, "utf8").split(marker)[0] ?? handWritten;
  } catch {
    // The first run writes the file.
  }
  writeFileSync(resultsFile, `${handWritten.trimEnd()}\n\n${marker}\n\n${renderResults(results)}`);
  console.log(`wrote results.json and RESULTS.md in ${OUT_DIR}`);
} finally {
  await browser?.close();
  await server.stop();
}
