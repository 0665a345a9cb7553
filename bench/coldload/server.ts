import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { linkNodeModules } from "../lib/nodeModules";
import { ownCpuMs, treeCpuMs } from "../lib/processes";
import { BENCH_LIMITS_ENV, startServer as startServerProcess } from "../lib/server";

const root = path.resolve(import.meta.dirname, "../..");

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
  linkNodeModules(dir);
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
  options: { port: number; dataDir: string; databaseUrl?: string | undefined; nodeArgs?: string[] },
): Promise<RunningServer> {
  const server = await startServerProcess({
    port: options.port,
    args: [...(options.nodeArgs ?? []), bundle],
    cwd: path.dirname(bundle),
    timeoutMs: 60_000,
    pollMs: 100,
    env: {
      NODE_ENV: "production",
      DATA_DIR: options.dataDir,
      ...BENCH_LIMITS_ENV,
      // Unset (undefined) unless given: the embedded database, whatever this shell exports.
      DATABASE_URL: options.databaseUrl || undefined,
    },
  });
  const pid = server.pid;
  return { url: server.url, cpuMs: () => treeCpuMs(pid), ownCpuMs: () => ownCpuMs(pid), stop: server.stop };
}
