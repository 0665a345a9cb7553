import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import type { Span, Trace } from "./trace";

/** One timed bare command (or pair), with the git processes the trace saw. */
export interface BareTiming {
  ms: number;
  spans: Span[];
  /** Anchors in another process: the IPC round trip around `ms`, seen from the asking process. */
  ipcMs?: number;
}

/** The anchor's side of an iteration: the same files written, then the bare commands timed. */
export interface Anchor {
  write(files: ReadonlyMap<string, string>): Promise<void>;
  /** `git status --porcelain=v1`, and the paths it listed. */
  status(): Promise<BareTiming & { paths: string[] }>;
  /** `git add --all`, then `git commit -m message`. */
  addAndCommit(message: string): Promise<BareTiming>;
  close(): Promise<void>;
}

/** execFile as a promise of its output (by hand: promisify would bypass the trace's wrapper). */
function run(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile("git", args, { ...options, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(`git ${args[0]}: ${stderr || error.message}`)) : resolve(stdout),
    ),
  );
}

/**
 * A plain git repository in `dir` holding `files`, committed once, driven by the bare commands
 * a person would type, through `execFile` from this process. Global and system configuration
 * are off, as on the server, so both read the same settings; the identity comes from the
 * environment. `trace` must watch `dir`.
 */
export async function createBareRepo(
  dir: string,
  files: ReadonlyMap<string, string>,
  trace: Trace,
): Promise<Anchor> {
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: dir,
    LANG: "C.UTF-8",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_AUTHOR_NAME: "Bench",
    GIT_AUTHOR_EMAIL: "bench@bench.invalid",
    GIT_COMMITTER_NAME: "Bench",
    GIT_COMMITTER_EMAIL: "bench@bench.invalid",
  };
  const git = (...args: string[]) => run(args, { cwd: dir, env });
  const write = async (changed: ReadonlyMap<string, string>) => {
    for (const [file, content] of changed) {
      const target = path.join(dir, file);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.writeFile(target, content);
    }
  };
  const timed = async <T>(work: () => Promise<T>) => {
    trace.start();
    const started = performance.now();
    const value = await work();
    const ms = performance.now() - started;
    return { ms, spans: trace.take(), value };
  };

  await fs.mkdir(dir, { recursive: true });
  await git("init", "--quiet", "--initial-branch=main");
  await write(files);
  await git("add", "--all");
  await git("commit", "--quiet", "-m", "Initial files");
  return {
    write,
    async status() {
      const { ms, spans, value } = await timed(() => git("status", "--porcelain=v1"));
      return {
        ms,
        spans,
        paths: value
          .split("\n")
          .filter(Boolean)
          .map((line) => line.slice(3)),
      };
    },
    async addAndCommit(message) {
      const { ms, spans } = await timed(async () => {
        await git("add", "--all");
        await git("commit", "-m", message);
      });
      return { ms, spans };
    },
    close: () => fs.rm(dir, { recursive: true, force: true }),
  };
}

/** The tree HEAD points at in the repository at `dir`: equal trees mean equal files. */
export async function headTree(dir: string): Promise<string> {
  return (await run(["rev-parse", "HEAD^{tree}"], { cwd: dir, env: { PATH: process.env.PATH } })).trim();
}
