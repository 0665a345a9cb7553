import { type ChildProcess, fork } from "node:child_process";
import { type Dirent, mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Summary, summarize } from "../lib/stats";
import { sleep } from "../lib/wait";
import { type Capacity, capacityOf } from "./capacity";
import { createDocuments } from "./documents";
import type { Connected, LoadgenCommand, LoadgenStats, UpdatesSent } from "./loadgen";
import { machineBusyMs, waitForQuiet } from "./machineLoad";
import { type ServerHandle, type ServerOptions, startServer } from "./servers";
import { SYSTEMS, type SystemId } from "./systems";
import { tallyUpdates, type UpdateTally } from "./updateCheck";

export interface LoadConfig {
  sessions: number;
  steps: number[];
  warmupMs: number;
  dwellMs: number;
  loadgens: number;
  seedText: string;
  /** Tries per step while other processes use more than MAX_BACKGROUND_PERCENT of a core. */
  attempts: number;
  /**
   * Ours only: the paths of a workspace every session holds; session j's typists then edit
   * files 2j and 2j + 1 of it (wrapping), instead of both editing `src/main.js`.
   */
  typistFiles?: string[];
}

/** Extra work at two points of a load run, on the server and sessions it uses. */
export interface LoadHooks {
  /** Once the sessions exist (e.g. to fill their workspaces). */
  prepare?(server: ServerHandle, names: string[]): Promise<void>;
  /**
   * Restart the server after `prepare`: the baseline then holds no trace of it (a heap grown
   * by filling rooms, which RSS keeps after they unload), and every room starts unloaded.
   */
  restartAfterPrepare?: boolean;
  /** Once every session is connected and its idle memory measured, before the first step. */
  idle?(server: ServerHandle, names: string[]): Promise<void>;
}

const MAX_BACKGROUND_PERCENT = 25;

/**
 * A step this far past capacity (p99 over 5 s, or updates the server never applied) on a quiet
 * machine is where a system stops serving: more sessions would only measure its collapse, and
 * may stop it answering at all, so its ladder ends there (its capacity is already found). A
 * collapse while other processes were busy is tried again like any disturbed step.
 */
const COLLAPSED_P99_MS = 5_000;

/**
 * When idle memory is measured again after the connect (the first time is at 5 s): past a
 * server's idle work, here ours (a compaction after 10 s without an update, the last being a
 * seed text typed on connect, after which a document rests), with 10 s to spare for 400 of
 * them. What a quiet session costs for the rest of its life.
 */
export const REST_AFTER_MS = 20_000;
const isCollapsed = (step: StepResult) => step.service.p99 > COLLAPSED_P99_MS || !step.updates.isAccepted;

export interface StepResult {
  sessions: number;
  keystrokes: number;
  charsPerSecondPerTypist: number;
  delivered: number;
  service: Summary;
  intended: Summary;
  lost: number;
  diverged: number;
  disconnects: number;
  serverCpuPercent: number;
  cpuUsPerDelivered: number;
  cpuUsPerKeystroke: number;
  serverLoopDelayP99: number;
  /** The server's GC pauses in the dwell: share of the time, longest, how many (missing in older results). */
  serverGc?: { percent: number; maxMs: number; count: number };
  ping: Summary;
  loadgenCpuPercent: number[];
  loadgenLoopDelayP99: number;
  /** CPU used by other processes on the machine during the dwell (% of one core). */
  backgroundCpuPercent: number;
  /** Machine busy share just before the step's load started, after waiting for quiet. */
  busyBeforePercent: number;
  /** From before the typing started to after the last keystroke was delivered (warm-up included). */
  updates: UpdateTally;
}

export interface LoadResult {
  system: SystemId;
  label: string;
  connectMs: number;
  idle: {
    sessions: number;
    rssPerSessionKb: number;
    /** Missing in results from before it was measured. */
    pssPerSessionKb?: number;
    heapPerSessionKb: number;
    rssMb: number;
    pssMb?: number;
    /** The same REST_AFTER_MS after the connect; missing in results from before it was measured. */
    rested?: { rssPerSessionKb: number; pssPerSessionKb: number; heapPerSessionKb: number };
  };
  /** The seed texts the sessions' first clients typed while connecting. */
  connectUpdates: UpdateTally;
  steps: StepResult[];
  /** The steps it held (edit p99 ≤ 50 ms); missing in results from before issue 32. */
  capacity?: Capacity;
  /** Bytes in the server's data folder after the last step: what it stored (missing in older results). */
  storedBytes?: number;
}

/** A forked load generator and a way to send it a command and await its answer. */
export function startLoadgen() {
  const child = fork(path.join(import.meta.dirname, "loadgen.ts"), [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const ask = <T>(command: LoadgenCommand) =>
    new Promise<T>((resolve) => {
      child.once("message", (answer) => resolve(answer as T));
      child.send(command);
    });
  return { child, ask };
}

/** A load generator started by `startLoadgen`. */
export type Loadgen = ReturnType<typeof startLoadgen>;

/** Updates the load generators' clients have sent so far, in all. */
export async function updatesSent(loadgens: Loadgen[]): Promise<number> {
  const counts = await Promise.all(loadgens.map((lg) => lg.ask<UpdatesSent>({ type: "count" })));
  return counts.reduce((sum, c) => sum + c.updatesSent, 0);
}

/**
 * Pings the server's trivial HTTP endpoint every 200 ms: an outside view of its event loop. A
 * ping that fails (a server past its capacity stops accepting connections: fetch gives up after
 * 10 s) counts the time it waited, and the pinging goes on.
 */
export function startPinger(healthUrl: string) {
  const samples: number[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const started = performance.now();
      await fetch(healthUrl, { signal: AbortSignal.timeout(10_000) })
        .then((r) => r.arrayBuffer())
        .catch(() => undefined);
      samples.push(performance.now() - started);
      await sleep(200);
    }
  })();
  return async () => {
    running = false;
    await done;
    return summarize(samples);
  };
}

/**
 * One system's load run: connect every session idle (memory per idle session), then ramp the
 * number of typing sessions through `steps`, measuring each step after a warm-up.
 */
export async function runLoad(
  system: SystemId,
  label: string,
  config: LoadConfig,
  extra: Partial<ServerOptions> = {},
  hooks: LoadHooks = {},
): Promise<LoadResult> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `bench-${system}-`));
  // Shifted when another run on the machine holds the usual ports.
  const port = SYSTEMS[system].port + Number(process.env.BENCH_PORT_SHIFT ?? 0);
  const options: ServerOptions = { port, dataDir, ...extra };
  let server = await startServer(system, options);
  const loadgens = Array.from({ length: config.loadgens }, startLoadgen);
  try {
    const names = await createDocuments(server, config.sessions, `bench-${system}`);
    await hooks.prepare?.(server, names);
    if (hooks.restartAfterPrepare) {
      await server.stop();
      server = await startServer(system, options);
    }
    await sleep(2000);
    const before = await server.probe(true);
    const updatesBefore = await server.updates();
    const started = performance.now();
    const connected = await Promise.all(
      loadgens.map((lg, i) => {
        const mine = names.map((name, j) => ({ name, j })).filter(({ j }) => j % config.loadgens === i);
        return lg.ask<Connected>({
          type: "connect",
          system,
          url: server.url,
          names: mine.map((m) => m.name),
          seeds: mine.map((m) => m.j),
          seedText: config.seedText,
          files: config.typistFiles && mine.map((m) => typistFiles(config.typistFiles ?? [], m.j)),
        });
      }),
    );
    const failed = connected.reduce((sum, c) => sum + c.failed, 0);
    if (failed > 0) throw new Error(`[${label}] ${failed} sessions failed to connect`);
    const connectMs = performance.now() - started;
    await sleep(5000);
    const after = await server.probe(true);
    const perSession = (probe: typeof after) => ({
      rssPerSessionKb: (probe.rss - before.rss) / 1024 / config.sessions,
      pssPerSessionKb: (probe.pss - before.pss) / 1024 / config.sessions,
      heapPerSessionKb: (probe.heapUsed - before.heapUsed) / 1024 / config.sessions,
    });
    const idle: LoadResult["idle"] = {
      sessions: config.sessions,
      ...perSession(after),
      rssMb: after.rss / 1024 / 1024,
      pssMb: after.pss / 1024 / 1024,
    };
    const connectUpdates = tallyUpdates(
      label,
      "connect",
      await updatesSent(loadgens),
      updatesBefore,
      await server.updates(),
    );
    console.log(`[${label}] ${config.sessions} sessions connected in ${connectMs.toFixed(0)} ms; idle`, idle);
    console.log(`[${label}] updates while connecting`, connectUpdates);
    await sleep(REST_AFTER_MS - 5000);
    idle.rested = perSession(await server.probe(true));
    console.log(`[${label}] at rest (${REST_AFTER_MS / 1000} s after connecting)`, idle.rested);
    await hooks.idle?.(server, names);
    const steps: StepResult[] = [];
    ladder: for (const active of config.steps) {
      // Other people's processes share the 2 cores: a step they disturbed is run again.
      let best: StepResult | undefined;
      for (let attempt = 1; attempt <= config.attempts; attempt++) {
        let step: StepResult;
        try {
          step = await runStep(server, loadgens, active, config, label);
        } catch (error) {
          // The server stopped answering its own probes: far past its capacity.
          console.log(
            `[${label}] ${active} sessions: the server stopped answering (${String(error)}); no more steps`,
          );
          break ladder;
        }
        console.log(
          `[${label}] step (attempt ${attempt})`,
          JSON.stringify(step, (k, v) => (k === "count" ? undefined : v)),
        );
        if (!best || step.backgroundCpuPercent < best.backgroundCpuPercent) best = step;
        if (isCollapsed(step) && step.backgroundCpuPercent <= MAX_BACKGROUND_PERCENT) {
          steps.push(step);
          console.log(`[${label}] ${active} sessions: p99 ${Math.round(step.service.p99)} ms; no more steps`);
          break ladder;
        }
        if (step.backgroundCpuPercent <= MAX_BACKGROUND_PERCENT) break;
      }
      if (best) steps.push(best);
      // Collapsed in every try, however busy the machine was.
      if (best && isCollapsed(best)) break;
    }
    const storedBytes = folderBytes(dataDir);
    console.log(`[${label}] ${storedBytes} bytes in its data folder ${dataDir}`);
    return {
      system,
      label,
      connectMs,
      idle,
      connectUpdates,
      steps,
      capacity: capacityOf(steps),
      storedBytes,
    };
  } finally {
    await Promise.all(loadgens.map((lg) => closeLoadgen(lg.child)));
    await server.stop();
  }
}

/** The size of the files below `dir`; one deleted while this reads (a compaction's) counts 0. */
function folderBytes(dir: string): number {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  return entries.reduce((sum, entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sum + folderBytes(file);
    return sum + (entry.isFile() ? (statSync(file, { throwIfNoEntry: false })?.size ?? 0) : 0);
  }, 0);
}

/** Two different files of the workspace for session `index`'s typists. */
function typistFiles(paths: string[], index: number): string[] {
  return [paths[(2 * index) % paths.length] as string, paths[(2 * index + 1) % paths.length] as string];
}

/**
 * One step: the first `active` sessions (spread over the load generators) type for a warm-up
 * and a measured dwell; latency, loss, CPU and the update tally of that dwell.
 */
export async function runStep(
  server: ServerHandle,
  loadgens: Loadgen[],
  active: number,
  config: LoadConfig,
  label: string,
): Promise<StepResult> {
  const n = loadgens.length;
  const busyBeforePercent = await waitForQuiet(90_000);
  // Nobody types between steps: these and the counts after the step bound what was in flight.
  const [sentBefore, serverBefore] = [await updatesSent(loadgens), await server.updates()];
  await Promise.all(loadgens.map((lg, i) => lg.ask({ type: "type", active: Math.ceil((active - i) / n) })));
  await sleep(config.warmupMs);
  await Promise.all(loadgens.map((lg) => lg.ask({ type: "mark" })));
  const cpuBefore = server.cpuMs();
  const machineBefore = machineBusyMs();
  const selfBefore = process.cpuUsage();
  await server.probe(false);
  const stopPinger = startPinger(server.healthUrl);
  await sleep(config.dwellMs);
  const cpuMs = server.cpuMs() - cpuBefore;
  const machineMs = machineBusyMs() - machineBefore;
  const self = process.cpuUsage(selfBefore);
  const { loopDelay, gc } = await server.probe(false);
  const stats = await Promise.all(
    loadgens.map((lg) => lg.ask<LoadgenStats>({ type: "stop", graceMs: 2000 })),
  );
  const ping = await stopPinger();
  const sum = (pick: (s: LoadgenStats) => number) => stats.reduce((total, s) => total + pick(s), 0);
  const keystrokes = sum((s) => s.keystrokes);
  const delivered = sum((s) => s.received);
  await sleep(2000);
  const updates = tallyUpdates(
    label,
    `${active} sessions typing`,
    (await updatesSent(loadgens)) - sentBefore,
    serverBefore,
    await server.updates(),
  );
  return {
    sessions: active,
    keystrokes,
    charsPerSecondPerTypist: keystrokes / (2 * active) / (config.dwellMs / 1000),
    delivered,
    service: summarize(stats.flatMap((s) => s.service)),
    intended: summarize(stats.flatMap((s) => s.intended)),
    lost: sum((s) => s.lost),
    diverged: sum((s) => s.diverged),
    disconnects: sum((s) => s.disconnects),
    serverCpuPercent: (cpuMs / config.dwellMs) * 100,
    cpuUsPerDelivered: (cpuMs * 1000) / delivered,
    cpuUsPerKeystroke: (cpuMs * 1000) / keystrokes,
    serverLoopDelayP99: loopDelay.p99,
    serverGc: { percent: (gc.totalMs / config.dwellMs) * 100, maxMs: gc.maxMs, count: gc.count },
    ping,
    loadgenCpuPercent: stats.map((s) => Math.round(s.cpuPercent)),
    loadgenLoopDelayP99: Math.max(...stats.map((s) => s.loopDelayP99)),
    backgroundCpuPercent:
      ((machineMs -
        cpuMs -
        (self.user + self.system) / 1000 -
        sum((s) => (s.cpuPercent / 100) * config.dwellMs)) /
        config.dwellMs) *
      100,
    busyBeforePercent,
    updates,
  };
}

/** Asks a load generator to close its clients and resolves once it exited. */
export async function closeLoadgen(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.send({ type: "close" });
  await exited;
}
