import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { ProbeReply } from "./serverProbe";
import { sleep } from "./stats";
import type { SystemId } from "./transports";

const here = import.meta.dirname;
const root = path.resolve(here, "../..");
const require = createRequire(import.meta.url);
const yWebsocketServer = path.join(
  path.dirname(require.resolve("y-websocket/package.json")),
  "bin/server.js",
);

export interface ServerOptions {
  port: number;
  /** Where the server keeps its data; the in-memory servers ignore it unless `persist` is set. */
  dataDir: string;
  /** Hocuspocus: file-backed Database extension; y-websocket: YPERSISTENCE (LevelDB). Ours always persists. */
  persist?: boolean;
  /** Ours only: PostgreSQL instead of the embedded PGlite. */
  databaseUrl?: string;
}

/** A running server under test, in its own process. */
export interface ServerHandle {
  system: SystemId;
  url: string;
  healthUrl: string;
  pid: number;
  /** CPU time (user + system) the process has used so far, in ms. */
  cpuMs(): number;
  /** Memory and event-loop delay from the preloaded probe; `gc` forces a full GC first. */
  probe(gc: boolean): Promise<ProbeReply>;
  stop(): Promise<void>;
}

function command(system: SystemId, options: ServerOptions): { args: string[]; env: NodeJS.ProcessEnv } {
  const port = String(options.port);
  if (system === "ours") {
    const env: NodeJS.ProcessEnv = {
      PORT: port,
      HOST: "127.0.0.1",
      DATA_DIR: options.dataDir,
      LOG_LEVEL: "warn",
    };
    if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
    return { args: [path.join(root, "apps/server/src/main.ts")], env };
  }
  if (system === "hocuspocus") {
    const env: NodeJS.ProcessEnv = { PORT: port };
    if (options.persist) env.PERSIST_DIR = options.dataDir;
    return { args: [path.join(here, "hocuspocusServer.ts")], env };
  }
  const env: NodeJS.ProcessEnv = { PORT: port, HOST: "127.0.0.1" };
  if (options.persist) env.YPERSISTENCE = options.dataDir;
  return { args: [yWebsocketServer], env };
}

/** Starts `system` with the probe preloaded and waits until it answers HTTP. */
export async function startServer(system: SystemId, options: ServerOptions): Promise<ServerHandle> {
  const { args, env } = command(system, options);
  // A V8 CPU profile of each server process, written when it exits (SIGTERM ends ours cleanly).
  const profile = process.env.BENCH_CPU_PROF
    ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  const child = spawn(
    process.execPath,
    [...profile, "--expose-gc", "--import", "tsx", "--import", path.join(here, "serverProbe.ts"), ...args],
    {
      cwd: root,
      env: { ...process.env, NODE_ENV: "production", ...env },
      stdio: ["ignore", "ignore", "inherit", "ipc"],
    },
  );
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${system} did not start`);
  const url = `http://127.0.0.1:${options.port}`;
  const healthUrl = `${url}${system === "ours" ? "/api/health" : "/health"}`;
  await waitForHealth(healthUrl, child);
  return {
    system,
    url,
    healthUrl,
    pid,
    cpuMs: () => cpuMsOf(pid),
    probe: (gc) => probe(child, gc),
    stop: () => stop(child),
  };
}

async function waitForHealth(healthUrl: string, child: ChildProcess) {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(healthUrl)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${healthUrl} did not answer within 30 s`);
}

/** utime + stime of the whole process (all its threads) from /proc, in ms (USER_HZ = 100). */
function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function probe(child: ChildProcess, gc: boolean): Promise<ProbeReply> {
  return new Promise((resolve) => {
    const onMessage = (message: ProbeReply) => {
      if (message.type !== "probe") return;
      child.off("message", onMessage);
      resolve(message);
    };
    child.on("message", onMessage);
    child.send({ type: "probe", gc });
  });
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}
