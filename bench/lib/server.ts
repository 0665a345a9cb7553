import { type ChildProcess, type StdioOptions, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { sleep } from "./wait";

/** The repository's root: benches run the server and read builds from there. */
export const ROOT = path.resolve(import.meta.dirname, "../..");

/** The production server's bundle, built by `npm run build`. */
export const SERVER_MAIN = path.join(ROOT, "apps/server/dist/main.js");

/**
 * The per-address limits (sign-ups, session creation and joins) raised for a benchmark's own
 * server: every simulated user comes from 127.0.0.1, where the defaults would refuse most.
 */
export const BENCH_LIMITS_ENV = {
  REGISTER_MAX_PER_ADDRESS: "1000000",
  SESSION_CREATE_MAX_PER_ADDRESS: "1000000",
  SESSION_JOIN_MAX_PER_ADDRESS: "1000000",
} as const;

/** Throws, naming the command to run, unless the production build (and `webDist`, if given) exists. */
export function requireBuild(webDist?: string): void {
  if (!existsSync(SERVER_MAIN)) throw new Error("no production build: run `npm run build` first");
  if (webDist !== undefined && !existsSync(path.join(webDist, "index.html")))
    throw new Error(`${webDist} is missing: run \`npm run build && npm run build:e2e\` first`);
}

/** Resolves once `healthUrl` answers 2xx; rejects when `child` exits first or after `timeoutMs`. */
export async function waitForHealth(
  healthUrl: string,
  child: ChildProcess,
  { timeoutMs = 60_000, pollMs = 20 }: { timeoutMs?: number; pollMs?: number } = {},
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    const isUp = await fetch(healthUrl).then(
      (r) => r.ok,
      () => false,
    );
    if (isUp) return;
    if (performance.now() > deadline) throw new Error(`${healthUrl} did not answer within ${timeoutMs} ms`);
    await sleep(pollMs);
  }
}

/**
 * Sends SIGTERM (to the whole process group when `group`, for a process started `detached`)
 * and resolves once it exited; SIGKILL after `killAfterMs` if given.
 */
export async function stopProcess(
  child: ChildProcess,
  { group = false, killAfterMs }: { group?: boolean; killAfterMs?: number } = {},
): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  if (group && child.pid) process.kill(-child.pid, "SIGTERM");
  else child.kill("SIGTERM");
  const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill("SIGKILL"), killAfterMs);
  await exited;
  clearTimeout(timer);
}

/** Servers this process started that are still running: stopped if the bench ends early. */
const running = new Set<ChildProcess>();
let isWatchingExit = false;

/**
 * Sends `child` SIGTERM when this process exits before stopping it (a bench that crashed or was
 * interrupted), so no server is left holding its port and database: a server stops its own
 * children (its embedded PostgreSQL) on SIGTERM.
 */
export function stopOnExit(child: ChildProcess): void {
  if (!isWatchingExit) {
    isWatchingExit = true;
    process.once("exit", () => {
      for (const left of running) left.kill("SIGTERM");
    });
    // Interrupted: exit, so that the above runs (a signal's default ends the process without it).
    for (const [signal, code] of [
      ["SIGINT", 130],
      ["SIGTERM", 143],
    ] as const)
      process.once(signal, () => process.exit(code));
  }
  running.add(child);
  child.once("exit", () => running.delete(child));
}

/** How to start the server: everything but the port has the bench's usual default. */
export interface StartOptions {
  port: number;
  /** Node's arguments: the entry, after any flags; the production bundle by default. */
  args?: string[];
  /** Set on top of this process's environment, after PORT, HOST=127.0.0.1 and LOG_LEVEL=warn. */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** The child's stdio; its stderr shows in the bench's by default. */
  stdio?: StdioOptions;
  /** How often and how long /api/health is polled. */
  pollMs?: number;
  timeoutMs?: number;
}

/** A server started by `startServer`, stopped by `stop` (which waits for its exit). */
export interface ServerProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts our server in its own process on loopback, as an operator starts it, and resolves
 * once /api/health answers; stops it again if it never does.
 */
export async function startServer(options: StartOptions): Promise<ServerProcess> {
  const url = `http://127.0.0.1:${options.port}`;
  // A server left over from an interrupted run would answer the health check for ours, which
  // then fails to bind: the bench would measure the wrong process.
  const isTaken = await fetch(`${url}/api/health`).then(
    () => true,
    () => false,
  );
  if (isTaken) throw new Error(`${url} already answers: a server left over from another run? Stop it first.`);
  const child = spawn(process.execPath, options.args ?? [SERVER_MAIN], {
    cwd: options.cwd ?? ROOT,
    env: {
      ...process.env,
      PORT: String(options.port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      ...options.env,
    },
    stdio: options.stdio ?? ["ignore", "ignore", "inherit"],
  });
  stopOnExit(child);
  const stop = () => stopProcess(child, { killAfterMs: 30_000 });
  try {
    await waitForHealth(`${url}/api/health`, child, { pollMs: options.pollMs, timeoutMs: options.timeoutMs });
  } catch (error) {
    await stop();
    throw error;
  }
  if (child.pid === undefined) throw new Error("the server process has no pid");
  return { url, pid: child.pid, child, stop };
}
