import fs from "node:fs/promises";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { runFileNameProblem, type StageResult } from "@ensemble/protocol";
import { OutputCapture, type StreamName } from "./capture";
import type { RunCgroup } from "./cgroups";
import { runCancelled } from "./errors";
import type { LiveIo } from "./liveIo";
import type { LocalRuntime } from "./runtimes";
import { signalProgram } from "./signalTree";
import { type Exit, killGroup, type Spawn, spawnHere } from "./spawner";

/** The host tools of the launch chain and the limits every run gets. */
export interface SandboxConfig {
  /**
   * `python` runs launcher.py on the host; `bwrap` is what the launcher execs; `prlimit`
   * (util-linux) holds a run's processes inside its user namespace when the server is not root.
   */
  tools: { python: string; bwrap: string; prlimit: string };
  tmpfsBytes: number;
  shmBytes: number;
  maxProcesses: number;
  maxOpenFiles: number;
  maxFileSizeBytes: number;
  outputMaxBytes: number;
  /** Niceness of every run, so the server's own loop wins the CPU. */
  nice: number;
}

/**
 * A file the sandbox gets besides the user's, the same way as theirs. `setup` sets Node's
 * stdout and stderr blocking, as they are on a terminal: into a pipe, Node queues writes in
 * memory, so `while (true) console.log(x)` would print nothing and grow until killed instead of
 * hitting the output cap.
 */
export interface ExtraFile {
  path: string;
  content: Buffer;
}

export const NODE_STDIO_PRELOAD: ExtraFile = {
  path: "/.ensemble/stdio.cjs",
  content: Buffer.from(
    'for (const s of [process.stdout, process.stderr]) if (typeof s._handle?.setBlocking === "function") s._handle.setBlocking(true);\n',
  ),
};

/** One run: what to execute, with which limits. */
export interface SandboxJob {
  runtime: LocalRuntime;
  /**
   * The first file runs. A name is a path under the work folder (`src/lib/util.js`); bwrap
   * creates its folders. Each file reaches bwrap as a memory file, never written on the host.
   */
  files: { name: string; content: Buffer }[];
  /** Files outside the work folder that the runtime needs (see ExtraFile). */
  extraFiles?: ExtraFile[];
  args: string[];
  stdin: string;
  timeoutMs: number;
  cpuTimeMs: number;
  memoryBytes: number;
  signal?: AbortSignal | undefined;
  /** A live run: output reported as it comes, stdin left open for `io` (`stdin` is then unused), signals. */
  io?: LiveIo | undefined;
}

/** What a queue slot runs as: its unprivileged host uid (undefined when the server is not root) and its cgroup. */
export interface SandboxSlot {
  uid: number | undefined;
  cgroup: RunCgroup | undefined;
}

/** What launcher.py reads on stdin: everything about the run, as JSON. */
export interface LaunchPlan {
  /** bwrap's argv, up to the interpreter, the entry file's path and the program's args. */
  argv: string[];
  /** Base64 contents for fds 3, 4, ... in the order of the `--file` arguments. */
  files: string[];
  /** Base64 stdin, or null for a live run: the launcher's own stdin stays the program's. */
  stdin: string | null;
  /** [RLIMIT_ name without the prefix, soft, hard] */
  rlimits: [string, number, number][];
  uid: number | null;
}

const WORK_DIR = "/box";
const FIRST_FILE_FD = 3;
const LAUNCHER = fileURLToPath(new URL("./launcher.py", import.meta.url));
/** launcher.py's exit code and stderr prefix when it could not exec bwrap. */
const LAUNCHER_FAILED = 125;
const LAUNCHER_PREFIX = "ensemble-launcher: ";

/**
 * The launch of one run: launcher.py sets the rlimits and drops to the slot's uid, then
 * execs bwrap, which builds the namespaces and the read-only filesystem and runs the
 * interpreter. The launcher `exec`s, so the pid the server holds is bwrap's in the end, and
 * killing its process group tears the whole sandbox down.
 */
export function buildLaunch(config: SandboxConfig, job: SandboxJob, slot: SandboxSlot): LaunchPlan {
  // The service checked the names already; this is the last line before bwrap's argv.
  for (const { name } of job.files) {
    const problem = runFileNameProblem(name);
    if (problem) throw new Error(`refusing a file name that ${problem}: ${JSON.stringify(name)}`);
  }
  const cpuSeconds = Math.max(1, Math.ceil(job.cpuTimeMs / 1000));
  // The launch holds one descriptor per file until bwrap has copied it in (then closes it), so
  // a project of many files needs that many more; the program's own budget stays maxOpenFiles.
  const openFiles = config.maxOpenFiles + allFiles(job).length;
  const fileSize = Math.max(config.maxFileSizeBytes, job.runtime.maxFileSizeBytes ?? 0);
  const rlimits: [string, number, number][] = [
    ["NOFILE", openFiles, openFiles],
    ["FSIZE", fileSize, fileSize],
    ["CORE", 0, 0],
    ["CPU", cpuSeconds, cpuSeconds + 1],
  ];
  // RLIMIT_NPROC counts per real uid, so on the host it is only meaningful with a uid of the
  // slot's own; without one it is set inside the sandbox instead (see processBound).
  if (slot.uid !== undefined) rlimits.push(["NPROC", config.maxProcesses, config.maxProcesses]);
  // Without a memory cgroup, address space is the only (per-process) memory bound left.
  if (!slot.cgroup) {
    const bytes = Math.max(1024 ** 3, job.memoryBytes * 4);
    rlimits.push(["AS", bytes, bytes]);
  }
  const argv = [
    config.tools.bwrap,
    ...bwrapArgs(config, job),
    ...(slot.uid === undefined ? processBound(config) : []),
    job.runtime.binary,
    ...job.runtime.flags,
    `${WORK_DIR}/${job.files[0]?.name ?? job.runtime.defaultFile}`,
    ...job.args,
  ];
  return {
    argv,
    files: allFiles(job).map((f) => f.content.toString("base64")),
    stdin: job.io ? null : Buffer.from(job.stdin).toString("base64"),
    rlimits,
    uid: slot.uid ?? null,
  };
}

/**
 * A run that shares the server's uid is held to `maxProcesses` by prlimit inside bwrap. The
 * kernel counts RLIMIT_NPROC per user namespace as well as per uid (ucounts): a limit set
 * after bwrap created the run's namespace counts only the tasks in it, so the server's own
 * threads and other runs never eat into a run's allowance, and a run cannot exceed it. With
 * N runs at once the uid holds at most what the server runs plus N × maxProcesses.
 */
function processBound(config: SandboxConfig): string[] {
  return [config.tools.prlimit, `--nproc=${config.maxProcesses}:${config.maxProcesses}`, "--"];
}

function bwrapArgs(config: SandboxConfig, job: SandboxJob): string[] {
  const args = [
    "--unshare-all",
    "--unshare-user",
    "--disable-userns",
    "--die-with-parent",
    "--new-session",
    "--hostname",
    "sandbox",
    "--clearenv",
    "--setenv",
    "PATH",
    "/usr/bin:/bin",
    "--setenv",
    "HOME",
    "/tmp",
    "--setenv",
    "LANG",
    "C.UTF-8",
    ...Object.entries(job.runtime.env).flatMap(([name, value]) => ["--setenv", name, value]),
    "--ro-bind",
    "/usr",
    "/usr",
    "--symlink",
    "usr/bin",
    "/bin",
    "--symlink",
    "usr/lib",
    "/lib",
    "--symlink",
    "usr/lib64",
    "/lib64",
    "--ro-bind-try",
    "/etc/ld.so.cache",
    "/etc/ld.so.cache",
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    "--size",
    String(config.shmBytes),
    "--tmpfs",
    "/dev/shm",
    "--size",
    String(config.tmpfsBytes),
    "--tmpfs",
    "/tmp",
    "--size",
    String(config.tmpfsBytes),
    "--tmpfs",
    WORK_DIR,
  ];
  allFiles(job).forEach((file, i) => {
    args.push("--perms", "0444", "--file", String(FIRST_FILE_FD + i), file.path);
  });
  // Last: the bwrap root and /dev are writable tmpfs until remounted read-only.
  args.push("--remount-ro", "/dev", "--remount-ro", "/", "--chdir", WORK_DIR);
  return args;
}

function allFiles(job: SandboxJob): ExtraFile[] {
  return [
    ...job.files.map((f) => ({ path: `${WORK_DIR}/${f.name}`, content: f.content })),
    ...(job.extraFiles ?? []),
  ];
}

/** Why the server killed a run; `stopped` is a live run's SIGKILL (a Stop that SIGINT did not end). */
type KillReason = "timeout" | "aborted" | "memory" | "stopped" | StreamName;

/** A launcher waiting in its slot's cgroups for one run. */
export interface ParkedSandbox {
  /** False once the launcher is gone (used, discarded or died). */
  readonly isReady: boolean;
  /**
   * Runs one job and resolves with Piston's stage result. Never rejects for anything the
   * program does; rejects with runCancelled when `signal` aborted it, and with an Error when
   * the sandbox could not start at all.
   */
  run(job: SandboxJob): Promise<StageResult>;
  /** Kills whatever is left of the launcher or its run, waits until it is gone, and frees the cgroup for the slot's next one. */
  release(): Promise<void>;
}

/**
 * Starts launcher.py for the slot's next run and moves it into the slot's cgroups, so that
 * the cgroup join (an RCU grace period in the kernel) is paid before the run, not during it.
 * Everything the launcher then starts is born inside the limits, forks included.
 */
export async function parkSandbox(
  config: SandboxConfig,
  slot: SandboxSlot,
  spawn: Spawn = spawnHere,
): Promise<ParkedSandbox> {
  // Nothing of the server's environment (secrets included) reaches the chain; bwrap clears it again.
  const child = await spawn(config.tools.python, ["-I", "-S", "-B", LAUNCHER], {
    PATH: "/usr/bin:/bin",
    LANG: "C.UTF-8",
  });
  // A launcher that exits without reading makes the plan's write fail with EPIPE: harmless,
  // and without a listener it would be an uncaught error that takes the server down.
  child.stdin.on("error", () => {});
  // Never after the exit: the pid may belong to someone else by then.
  const kill = () => {
    if (child.exit === undefined) killGroup(child.pid);
  };
  let used = false;
  const isReady = () => !used && child.exit === undefined;
  try {
    // Lower priority for the run (inherited by all it forks): the server's own loop wins the CPU.
    if (config.nice > 0) os.setPriority(child.pid, config.nice);
    for (const file of slot.cgroup?.procsFiles ?? []) await fs.writeFile(file, String(child.pid));
    if (!isReady()) throw new Error("the sandbox launcher exited while parked");
  } catch (error) {
    kill();
    await child.closed;
    await slot.cgroup?.release();
    throw error;
  }

  return {
    get isReady() {
      return isReady();
    },
    async release() {
      used = true;
      kill();
      await child.closed;
      await slot.cgroup?.release();
    },
    async run(job) {
      if (!isReady()) throw new Error("this sandbox was already used");
      const plan = buildLaunch(config, job, slot);
      used = true;
      const started = performance.now();
      let killedFor: KillReason | undefined;
      const stop = (reason: KillReason) => {
        killedFor ??= reason;
        kill();
      };
      const capture = new OutputCapture(config.outputMaxBytes, (stream) => stop(stream), job.io?.onOutput);
      child.stdout.on("data", (chunk: Buffer) => capture.push("stdout", chunk));
      child.stderr.on("data", (chunk: Buffer) => capture.push("stderr", chunk));
      // False when the run's memory limit is below what the waiting launcher already holds.
      if ((await slot.cgroup?.begin(job.memoryBytes)) === false) stop("memory");
      else {
        const json = JSON.stringify(plan);
        // Framed by its length: a live run's stdin goes on after it (see launcher.py).
        child.stdin.write(`${Buffer.byteLength(json)}\n`);
        if (job.io) {
          child.stdin.write(json);
          job.io.attach({
            stdin: child.stdin,
            signal: (signal) => {
              if (signal === "SIGKILL") stop("stopped");
              else if (child.exit === undefined) void signalProgram(child.pid, signal);
            },
          });
        } else child.stdin.end(json);
      }
      const timer = setTimeout(() => stop("timeout"), job.timeoutMs);
      const onAbort = () => stop("aborted");
      job.signal?.addEventListener("abort", onAbort, { once: true });
      if (job.signal?.aborted) stop("aborted");

      const end = await child.closed;
      job.io?.finish();
      clearTimeout(timer);
      job.signal?.removeEventListener("abort", onAbort);
      const wallTime = Math.round(performance.now() - started);
      capture.close();
      const usage = await slot.cgroup?.collect();
      if (killedFor === "aborted") throw runCancelled();
      if (end?.code === LAUNCHER_FAILED && capture.stderr.startsWith(LAUNCHER_PREFIX)) {
        throw new Error(`the sandbox could not start: ${capture.stderr.trim()}`);
      }
      return {
        stdout: capture.stdout,
        stderr: capture.stderr,
        output: capture.output,
        ...outcome(killedFor, end, killedFor === "memory" || (usage?.isOomKilled ?? false), job.timeoutMs),
        truncated: capture.truncated,
        cpu_time: usage?.cpuMs ?? null,
        wall_time: wallTime,
        memory: usage?.memory ?? null,
      };
    },
  };
}

type Outcome = Pick<StageResult, "code" | "signal" | "status" | "message">;

const SIGXCPU = os.constants.signals.SIGXCPU;

/** Piston's vocabulary for how a run ended. bwrap reports "died of signal n" as exit 128+n. */
export function outcome(
  killedFor: KillReason | undefined,
  exit: Exit | undefined,
  isOomKilled: boolean,
  timeoutMs: number,
): Outcome {
  if (killedFor === "timeout") {
    return { code: null, signal: "SIGKILL", status: "TO", message: `Time limit exceeded (${timeoutMs} ms)` };
  }
  if (killedFor === "stdout" || killedFor === "stderr") {
    const status = killedFor === "stdout" ? "OL" : "EL";
    return { code: null, signal: "SIGKILL", status, message: `${killedFor} length exceeded` };
  }
  if (isOomKilled) return { code: null, signal: "SIGKILL", status: "SG", message: "Memory limit exceeded" };
  if (exit?.signal) {
    return { code: null, signal: exit.signal, status: "SG", message: `Killed by ${exit.signal}` };
  }
  const code = exit?.code ?? null;
  if (code !== null && code > 128 && code <= 128 + 64) {
    const number = code - 128;
    const name = signalName(number);
    if (number === SIGXCPU)
      return { code: null, signal: name, status: "TO", message: "CPU time limit exceeded" };
    return { code: null, signal: name, status: "SG", message: `Caught fatal signal ${number}` };
  }
  if (code !== 0) return { code, signal: null, status: "RE", message: `Exited with error status ${code}` };
  return { code: 0, signal: null, status: null, message: null };
}

function signalName(number: number): string {
  const entry = Object.entries(os.constants.signals).find(([, n]) => n === number);
  return entry ? entry[0] : `SIG${number}`;
}
