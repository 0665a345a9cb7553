import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { BENCH_LIMITS_ENV } from "../serverLimits";

const root = path.resolve(import.meta.dirname, "../..");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Our production server built from one commit, outside the working tree others edit. */
export interface ServerBuild {
  commit: string;
  /** `apps/server/dist/main.js` of the build. */
  bundle: string;
  remove(): void;
}

/**
 * Exports the server and its packages at `ref` (`git archive`) into a temporary directory,
 * shares the repository's node_modules through symlinks (our packages point at the exported
 * copies) and runs `scripts/build-server.mjs` there: the bench measures a commit as an operator
 * runs it, whatever the working tree holds meanwhile.
 */
export function buildServer(ref: string): ServerBuild {
  const commit = execFileSync("git", ["rev-parse", ref], { cwd: root, encoding: "utf8" }).trim();
  const dir = path.join(tmpdir(), `ensemble-coldload-${commit.slice(0, 12)}-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const parts = "apps/server packages scripts/build-server.mjs tsconfig.base.json";
  execFileSync("sh", ["-c", `git archive ${commit} ${parts} | tar -x -C "${dir}"`], { cwd: root });
  const own = path.join(dir, "node_modules");
  mkdirSync(path.join(own, "@ensemble"), { recursive: true });
  for (const entry of readdirSync(path.join(root, "node_modules"))) {
    if (entry !== "@ensemble") symlinkSync(path.join(root, "node_modules", entry), path.join(own, entry));
  }
  for (const [name, folder] of [
    ["collab", "packages/collab"],
    ["protocol", "packages/protocol"],
    ["server", "apps/server"],
  ] as const) {
    symlinkSync(path.join(dir, folder), path.join(own, "@ensemble", name));
  }
  execFileSync(process.execPath, ["scripts/build-server.mjs"], { cwd: dir, stdio: "inherit" });
  return {
    commit,
    bundle: path.join(dir, "apps/server/dist/main.js"),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** One running server process. */
export interface RunningServer {
  url: string;
  /** CPU time (user + system) of the server and every process below it so far, in ms. */
  cpuMs(): number;
  /** CPU time of the server's own process (its Node.js threads) so far, in ms. */
  ownCpuMs(): number;
  stop(): Promise<void>;
}

/** Starts the bundle on `port` with its data in `dataDir` (or on `databaseUrl`) and waits for /api/health. */
export async function startServer(
  bundle: string,
  options: { port: number; dataDir: string; databaseUrl?: string | undefined },
): Promise<RunningServer> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(options.port),
    HOST: "127.0.0.1",
    DATA_DIR: options.dataDir,
    LOG_LEVEL: "warn",
    ...BENCH_LIMITS_ENV,
  };
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  else delete env.DATABASE_URL;
  const child = spawn(process.execPath, [bundle], {
    cwd: path.dirname(bundle),
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error("the server did not start");
  const url = `http://127.0.0.1:${options.port}`;
  await waitForHealth(`${url}/api/health`, child);
  return { url, cpuMs: () => treeCpuMs(pid), ownCpuMs: () => ownCpuMs(pid), stop: () => stop(child) };
}

async function waitForHealth(url: string, child: ChildProcess) {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  throw new Error(`${url} did not answer within 60 s`);
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  await exited;
  clearTimeout(timer);
}

/** /proc/<pid>/stat's fields after the command name; [] once the process is gone. */
function statFields(pid: number): string[] {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return [];
  }
}

function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) => {
      const file = `/proc/${pid}/task/${task}/children`;
      return existsSync(file) ? readFileSync(file, "utf8").split(" ").filter(Boolean).map(Number) : [];
    });
  } catch {
    return [];
  }
}

/** utime + stime of `pid` alone (all its threads), in ms. */
function ownCpuMs(pid: number): number {
  const fields = statFields(pid);
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) * 10;
}

/**
 * utime + stime + cutime + cstime (fields 14-17 of proc(5), USER_HZ = 100) of `pid` and every
 * living process below it: a database the server runs as a child process is charged to it.
 */
export function treeCpuMs(pid: number): number {
  let ticks = 0;
  const queue = [pid];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const fields = statFields(next);
    for (const i of [11, 12, 13, 14]) ticks += Number(fields[i] ?? 0);
    queue.push(...childrenOf(next));
  }
  return ticks * 10;
}
