import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs/promises";
import readline from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimUids } from "./uids";

/** RUN_MAX_PROCESSES of the runner under test: each run's allowance. */
const ALLOWANCE = 64;
/**
 * A net under the test itself, not part of what it tests: the whole runner's uid may hold at
 * most this many tasks, so a broken bound stops here (and fails the assertions) instead of
 * filling the machine's process table.
 */
const SAFETY_NET = 400;

/** Keeps forking until the wall clock kills it: every failed fork is retried at once. */
const FORK_BOMB = "import os\nwhile True:\n  try: os.fork()\n  except OSError: pass";

/** Needs a fork of its own to print. */
const CANARY = "import os\npid = os.fork()\nif pid == 0: os._exit(0)\nos.waitpid(pid, 0)\nprint('canary')";

/**
 * The real runner (local.ts createLocalRunner) started by a server that is not root: the
 * child below is Node under an unprivileged uid of its own, reading commands on stdin and
 * answering each run's result as a JSON line.
 */
const RUNNER = `
  const readline = await import("node:readline");
  const { loadConfig } = await import(${JSON.stringify(new URL("../../env.ts", import.meta.url).href)});
  const { createLogger } = await import(${JSON.stringify(new URL("../../logger.ts", import.meta.url).href)});
  const { createLocalRunner } = await import(${JSON.stringify(new URL("./local.ts", import.meta.url).href)});
  const config = loadConfig({ RUN_MAX_PROCESSES: "${ALLOWANCE}" });
  const runner = createLocalRunner(config, createLogger("silent"), 2);
  const state = await runner.ready;
  const say = (line) => process.stdout.write(JSON.stringify(line) + "\\n");
  say({ ready: { available: state.available, reason: state.reason, isRoot: state.isRoot } });
  const python = state.runtimes.find((r) => r.id === "python");
  const job = (code, timeoutMs) => ({ runtime: python, files: [{ name: "main.py", content: Buffer.from(code) }],
    args: [], stdin: "", timeoutMs, cpuTimeMs: timeoutMs, memoryBytes: config.RUN_MEMORY_LIMIT_BYTES });
  const runs = [];
  for await (const line of readline.createInterface({ input: process.stdin })) {
    const { name, slot, code, timeoutMs } = JSON.parse(line);
    runs.push(runner.run(job(code, timeoutMs), slot).then((result) => say({ [name]: result.run })));
  }
  await Promise.all(runs);
  await runner.close();`;

interface Sample {
  /** Every task (thread) whose real uid is the runner's: what RLIMIT_NPROC counts. */
  total: number;
  /** The tasks in each user namespace other than the host's: one per sandboxed run. */
  perRun: Map<string, number>;
}

/**
 * The non-root mode of the sandbox (docs/sandbox.md, "A server that is not root"): a fork
 * bomb run by a server that shares its uid with its runs stays within its run's allowance,
 * a concurrent run still starts, the run ends, nothing is left, and the machine still forks.
 */
describe("the sandbox of a server that is not root", () => {
  let uid: number;
  let release: () => Promise<void>;
  let hostUserNs: string;
  let child: ChildProcess;
  let lines: AsyncIterator<string>;

  const next = async (): Promise<Record<string, unknown>> => {
    const { value, done } = await lines.next();
    if (done) throw new Error("the runner exited early");
    return JSON.parse(value) as Record<string, unknown>;
  };
  const send = (command: { name: string; slot: number; code: string; timeoutMs: number }) =>
    child.stdin?.write(`${JSON.stringify(command)}\n`);

  async function sample(): Promise<Sample> {
    const perRun = new Map<string, number>();
    let total = 0;
    for (const pid of (await fs.readdir("/proc")).filter((name) => /^\d+$/.test(name))) {
      const status = await fs.readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
      const realUid = Number(status.match(/^Uid:\s+(\d+)/m)?.[1]);
      if (realUid !== uid) continue;
      const threads = Number(status.match(/^Threads:\s+(\d+)/m)?.[1] ?? 0);
      total += threads;
      const ns = await fs.readlink(`/proc/${pid}/ns/user`).catch(() => hostUserNs);
      if (ns !== hostUserNs) perRun.set(ns, (perRun.get(ns) ?? 0) + threads);
    }
    return { total, perRun };
  }

  beforeAll(async () => {
    if (process.getuid?.() !== 0)
      throw new Error("this test starts the runner as another uid: run it as root (CI does)");
    const claim = await claimUids(64_000, 1);
    uid = claim.uids[0] as number;
    release = claim.release;
    hostUserNs = await fs.readlink("/proc/self/ns/user");
    const node = [process.execPath, "--import", "tsx", "--input-type=module", "-e", RUNNER];
    const asUser = ["setpriv", `--reuid=${uid}`, `--regid=${uid}`, "--clear-groups", "--inh-caps=-all"];
    child = spawn("prlimit", [`--nproc=${SAFETY_NET}:${SAFETY_NET}`, "--", ...asUser, ...node], {
      stdio: ["pipe", "pipe", "inherit"],
      env: { PATH: "/usr/bin:/bin", HOME: "/tmp" },
    });
    lines = readline
      .createInterface({ input: child.stdout as NodeJS.ReadableStream })
      [Symbol.asyncIterator]();
  });
  afterAll(async () => {
    child?.kill("SIGKILL");
    await release?.();
  });

  it("holds a fork bomb to its run's allowance while another run still starts; nothing is left", async () => {
    const { ready } = (await next()) as { ready: { available: boolean; reason?: string; isRoot: boolean } };
    expect(ready.reason).toBeUndefined();
    expect(ready).toMatchObject({ available: true, isRoot: false });

    // What the server itself runs under that uid (Node, the spawner, parked launchers).
    const base = Math.max(...(await Promise.all([sample(), sample(), sample()])).map((s) => s.total));
    send({ name: "bomb", slot: 0, code: FORK_BOMB, timeoutMs: 2500 });
    const samples: Sample[] = [];
    let isFinished = false;
    const results: Record<string, unknown> = {};
    let isCanarySent = false;
    // Until the bomb has ended and, if it was started, the canary too.
    const collecting = (async () => {
      while (!("bomb" in results) || (isCanarySent && !("canary" in results)))
        Object.assign(results, await next());
      isFinished = true;
    })();
    while (!isFinished) {
      const now = await sample();
      samples.push(now);
      // Once the bomb presses against its bound, a second run must still get its processes.
      if (!isCanarySent && Math.max(0, ...now.perRun.values()) >= ALLOWANCE - 2) {
        send({ name: "canary", slot: 1, code: CANARY, timeoutMs: 5000 });
        isCanarySent = true;
      }
    }
    await collecting;

    expect(isCanarySent, "the bomb reached its allowance").toBe(true);
    expect(results.bomb).toMatchObject({ status: "TO", signal: "SIGKILL" });
    expect(results.canary).toMatchObject({ status: null, stdout: "canary\n" });
    const mostInOneRun = Math.max(...samples.flatMap((s) => [...s.perRun.values()]));
    expect(mostInOneRun).toBeLessThanOrEqual(ALLOWANCE);
    const mostOfTheUid = Math.max(...samples.map((s) => s.total));
    expect(mostOfTheUid, `base ${base}`).toBeLessThanOrEqual(base + 2 * ALLOWANCE);

    child.stdin?.end();
    await new Promise((resolve) => child.once("exit", resolve));
    const deadline = Date.now() + 3000;
    while ((await sample()).total > 0) {
      if (Date.now() > deadline) throw new Error("processes of the runner's uid are left");
      await new Promise((r) => setTimeout(r, 50));
    }
    // The machine, and that uid, still fork.
    expect(() => execFileSync("true")).not.toThrow();
    expect(() =>
      execFileSync("setpriv", [`--reuid=${uid}`, `--regid=${uid}`, "--clear-groups", "true"]),
    ).not.toThrow();
  });
});
