import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, existsSync, openSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import path from "node:path";
import { buildSync } from "esbuild";
import { descendantsRssBytes, ownCpuMs, treeCpuMs, treePssBytes } from "../lib/processes";
import { BENCH_LIMITS_ENV, SERVER_MAIN, stopOnExit, stopProcess, waitForHealth } from "../lib/server";
import type { ProbeReply, YjsUpdatesReply } from "./serverProbe";
import { SYSTEMS, type SystemId } from "./systems";

const here = import.meta.dirname;
const root = path.resolve(here, "../..");
const require = createRequire(import.meta.url);
const yWebsocketServer = path.join(
  path.dirname(require.resolve("y-websocket/package.json")),
  "bin/server.js",
);
/** Our production bundle, built by `snapshot.ts` in the exported tree this harness runs from. */
const OUR_BUNDLE = SERVER_MAIN;

export interface ServerOptions {
  port: number;
  /** Where the server keeps its data (see SYSTEMS); the in-memory ones keep nothing there. */
  dataDir: string;
  /** Ours only: that PostgreSQL server instead of the embedded one. */
  databaseUrl?: string;
  /** More of the server's configuration (ours: `RUN_NICE`, …). */
  env?: Record<string, string>;
  /** More TypeScript modules preloaded after the probe (compiled like it), e.g. the vcs trace. */
  preload?: string[];
  /** Keep what the server prints on stdout (its log) for `ServerHandle.stdout`; otherwise it is dropped. */
  keepStdout?: boolean;
}

/** Client updates a server applied and refused since it started, as it counts them. */
export interface UpdateCounts {
  applied: number;
  refused: number;
  /** Ours only: updates built on content the server lacked, not applied; the client resends. */
  deferred?: number;
}

/** An IPC message to the modules preloaded into a server under test. */
export type Message = { type: string } & Record<string, unknown>;

/** A running server under test, in its own process. */
export interface ServerHandle {
  system: SystemId;
  url: string;
  healthUrl: string;
  pid: number;
  /** CPU time (user + system) the server's process tree has used so far, in ms. */
  cpuMs(): number;
  /** CPU of the server's own process, without its children (a database, sandboxes) (ms). */
  ownCpuMs(): number;
  /**
   * Memory and event-loop delay from the preloaded probe; `gc` forces a full GC first. `rss`
   * is the whole process tree's (a child process the server starts counts; a page shared by
   * several of them counts in each), `pss` the same tree's with shared pages split.
   */
  probe(gc: boolean): Promise<ProbeReply & { pss: number }>;
  /** The client updates the server applied and refused since it started. */
  updates(): Promise<UpdateCounts>;
  /** What the server printed on stdout so far, when started with `keepStdout`. */
  stdout(): string;
  /** Sends `message` to the preloaded modules and resolves with the first answer of `replyType`. */
  ask<T>(message: Message, replyType: string): Promise<T>;
  stop(): Promise<void>;
}

/**
 * `entry`, a TypeScript module of the harness, bundled into plain JavaScript beside it (npm
 * packages stay imports), so no server under test runs with a TypeScript loader: ours runs as
 * its production bundle, the others as published.
 */
function compiled(entry: string): string {
  const outfile = path.join(path.dirname(entry), ".compiled", path.basename(entry).replace(/\.ts$/, ".mjs"));
  buildSync({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "warning",
  });
  return outfile;
}

function command(system: SystemId, options: ServerOptions): { args: string[]; env: NodeJS.ProcessEnv } {
  const port = String(options.port);
  const { protocol, isPersisted, storeDebounceMs } = SYSTEMS[system];
  if (protocol === "ours") {
    if (!existsSync(OUR_BUNDLE))
      throw new Error(`${OUR_BUNDLE} is missing: run the bench through its run.ts, which builds it`);
    const env: NodeJS.ProcessEnv = {
      PORT: port,
      HOST: "127.0.0.1",
      DATA_DIR: options.dataDir,
      LOG_LEVEL: "warn",
      ...BENCH_LIMITS_ENV,
    };
    if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
    return { args: [OUR_BUNDLE], env };
  }
  if (protocol === "hocuspocus") {
    const env: NodeJS.ProcessEnv = { PORT: port };
    if (isPersisted) env.PERSIST_DIR = options.dataDir;
    if (storeDebounceMs !== undefined) env.STORE_DEBOUNCE_MS = String(storeDebounceMs);
    return { args: [compiled(path.join(here, "hocuspocusServer.ts"))], env };
  }
  // The probe counts what y-websocket applied through the `yjs` its script loads. With
  // YPERSISTENCE its script stores every update of a document in LevelDB (y-leveldb).
  const env: NodeJS.ProcessEnv = { PORT: port, HOST: "127.0.0.1", BENCH_PROBE_YJS_FROM: yWebsocketServer };
  if (isPersisted) env.YPERSISTENCE = options.dataDir;
  return { args: [yWebsocketServer], env };
}

/** Starts `system` with the probe preloaded and waits until it answers HTTP. */
export async function startServer(system: SystemId, options: ServerOptions): Promise<ServerHandle> {
  const { args, env } = command(system, options);
  // A V8 CPU profile of each server process, written when it exits (SIGTERM ends ours cleanly).
  const profile = process.env.BENCH_CPU_PROF
    ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  const preloads = [path.join(here, "serverProbe.ts"), ...(options.preload ?? [])].flatMap((file) => [
    "--import",
    compiled(file),
  ]);
  // V8's trace of every collection (what each pause did, what survived), one file per start;
  // not for a server whose stdout the caller reads (the trace would take its place).
  const gcTrace = options.keepStdout ? undefined : process.env.BENCH_GC_TRACE;
  const traceFile = gcTrace ? openSync(`${gcTrace}-${system}-${Date.now()}.log`, "w") : undefined;
  const child = spawn(
    process.execPath,
    [...profile, ...(traceFile === undefined ? [] : ["--trace-gc-nvp"]), "--expose-gc", ...preloads, ...args],
    {
      cwd: root,
      env: { ...process.env, NODE_ENV: "production", ...env, ...options.env },
      stdio: ["ignore", traceFile ?? (options.keepStdout ? "pipe" : "ignore"), "inherit", "ipc"],
    },
  );
  stopOnExit(child);
  // The child has its own copy of the descriptor.
  if (traceFile !== undefined) closeSync(traceFile);
  const printed: string[] = [];
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => printed.push(chunk));
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${system} did not start`);
  const url = `http://127.0.0.1:${options.port}`;
  const { protocol } = SYSTEMS[system];
  const healthUrl = `${url}${protocol === "ours" ? "/api/health" : "/health"}`;
  await waitForHealth(healthUrl, child, { timeoutMs: 30_000, pollMs: 100 });
  const ask = <T>(message: Message, replyType: string) => askChild<T>(child, message, replyType);
  return {
    system,
    url,
    healthUrl,
    pid,
    cpuMs: () => treeCpuMs(pid),
    ownCpuMs: () => ownCpuMs(pid),
    probe: async (gc) => {
      const reply = await ask<ProbeReply>({ type: "probe", gc }, "probe");
      return { ...reply, rss: reply.rss + descendantsRssBytes(pid), pss: treePssBytes(pid) };
    },
    updates: async () => {
      if (protocol !== "ywebsocket") return updatesFromHealth(healthUrl);
      const reply = await ask<YjsUpdatesReply>({ type: "updates" }, "updates");
      if (!reply.isSameInstance)
        console.error(
          "\n!!! y-websocket's documents are not of the yjs the probe counts: its counts are wrong\n",
        );
      return { applied: reply.applied, refused: reply.refused };
    },
    stdout: () => printed.join(""),
    ask,
    stop: () => stopProcess(child, { killAfterMs: 15_000 }),
  };
}

/** Ours answers `/api/health` with `{ ok, liveSessions, updates }`; our Hocuspocus wrapper `/health` with `{ ok, updates }`. */
async function updatesFromHealth(healthUrl: string): Promise<UpdateCounts> {
  const body: unknown = await (await fetch(healthUrl)).json();
  const updates = field(body, "updates");
  const count = (name: string) => {
    const value = field(updates, name);
    return typeof value === "number" ? value : undefined;
  };
  const [applied, refused, deferred] = [count("applied"), count("refused"), count("deferred")];
  if (applied === undefined || refused === undefined)
    throw new Error(`${healthUrl} answered no update counts: ${JSON.stringify(body)}`);
  return deferred === undefined ? { applied, refused } : { applied, refused, deferred };
}

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? Reflect.get(value, key) : undefined;
}

/** A loopback port nobody listens on right now (the system picks it), for a server that needs a fixed one. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function askChild<T>(child: ChildProcess, message: Message, replyType: string): Promise<T> {
  return new Promise((resolve) => {
    const onMessage = (reply: { type?: unknown }) => {
      if (reply.type !== replyType) return;
      child.off("message", onMessage);
      resolve(reply as T);
    };
    child.on("message", onMessage);
    child.send(message);
  });
}
