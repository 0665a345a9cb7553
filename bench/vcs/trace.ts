import type { ChildProcess } from "node:child_process";
import { createRequire, syncBuiltinESMExports } from "node:module";

/** One git command or one file-system call the server made, in `performance.now()` ms. */
export interface Span {
  kind: "git" | "fs";
  /** The git subcommand (`status`, `for-each-ref`, …) or the fs/promises function. */
  label: string;
  /** Where git ran, or the path the fs call named. */
  where: string;
  start: number;
  /**
   * git only: when `execFile` returned. libuv forks and waits for the exec before returning,
   * so `spawned - start` is time the event loop was blocked starting the process.
   */
  spawned: number;
  end: number;
}

type Callback = (...args: unknown[]) => void;
type Wrapped = (...args: unknown[]) => unknown;

const require = createRequire(import.meta.url);
// The CommonJS objects behind `node:child_process` and `node:fs/promises`: the server imports
// `execFile` by name (a binding syncBuiltinESMExports refreshes) and `fs` as a default export
// (this very object), so replacing their functions here reaches its calls.
const childProcess: Record<string, unknown> = require("node:child_process");
const fsPromises: Record<string, unknown> = require("node:fs/promises");

const FS_CALLS = ["writeFile", "readFile", "mkdir", "readdir", "rm", "rmdir", "access"];

/** The subcommand of a git argument list, past the `-c name=value` pairs the server adds. */
export function gitSubcommand(args: readonly unknown[]): string {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "-c") i++;
    else return String(args[i]);
  }
  return "?";
}

/**
 * Records, in this process, every `execFile("git", …)` and every fs/promises call on a path
 * under the watched folders, with the time spent starting each git process. Costs two
 * `performance.now()` calls and an array push per call; it only records between `start()`
 * and `take()`.
 */
export function installTrace() {
  const folders: string[] = [];
  let spans: Span[] | undefined;
  const isWatched = (where: unknown) =>
    typeof where === "string" && folders.some((f) => where === f || where.startsWith(`${f}/`));

  const execFile = childProcess.execFile as Wrapped;
  childProcess.execFile = (...args: unknown[]) => {
    const [file, gitArgs, options] = args;
    const cwd = (options as { cwd?: unknown } | undefined)?.cwd;
    const recording = spans;
    if (file !== "git" || !recording || !Array.isArray(gitArgs) || !isWatched(cwd)) {
      return execFile(...args);
    }
    const span: Span = {
      kind: "git",
      label: gitSubcommand(gitArgs),
      where: String(cwd),
      start: performance.now(),
      spawned: 0,
      end: 0,
    };
    const last = args.length - 1;
    const callback = args[last] as Callback;
    args[last] = (...results: unknown[]) => {
      span.end = performance.now();
      recording.push(span);
      callback(...results);
    };
    const child = execFile(...args) as ChildProcess;
    span.spawned = performance.now();
    return child;
  };

  for (const name of FS_CALLS) {
    const original = fsPromises[name] as (...args: unknown[]) => Promise<unknown>;
    fsPromises[name] = async (...args: unknown[]) => {
      const recording = spans;
      if (!recording || !isWatched(args[0])) return original(...args);
      const start = performance.now();
      try {
        return await original(...args);
      } finally {
        const end = performance.now();
        recording.push({ kind: "fs", label: name, where: String(args[0]), start, spawned: start, end });
      }
    };
  }
  syncBuiltinESMExports();

  return {
    /** Records calls under `folder` (absolute, no trailing slash) from now on. */
    watch(folder: string) {
      folders.push(folder);
    },
    /** Starts a new recording, dropping anything not taken. */
    start() {
      spans = [];
    },
    /** Ends the recording and returns its spans in start order. */
    take(): Span[] {
      const taken = spans ?? [];
      spans = undefined;
      return taken.sort((a, b) => a.start - b.start);
    },
  };
}

export type Trace = ReturnType<typeof installTrace>;

/** How far this process's `performance.now()` is behind the machine's monotonic clock, in ms. */
function monotonicOffset(): number {
  return Number(process.hrtime.bigint()) / 1e6 - performance.now();
}

/**
 * `spans` moved from this process's `performance.now()` to the machine's monotonic clock
 * (CLOCK_MONOTONIC, which both count from), so another process can place them on its own.
 */
export function toMonotonic(spans: readonly Span[]): Span[] {
  const offset = monotonicOffset();
  return spans.map((s) => ({
    ...s,
    start: s.start + offset,
    spawned: s.spawned + offset,
    end: s.end + offset,
  }));
}

/** The inverse of `toMonotonic`, in the receiving process. */
export function fromMonotonic(spans: readonly Span[]): Span[] {
  const offset = monotonicOffset();
  return spans.map((s) => ({
    ...s,
    start: s.start - offset,
    spawned: s.spawned - offset,
    end: s.end - offset,
  }));
}
