import { randomBytes } from "node:crypto";
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
import { type Artifact, compileThenRun, StageSplitter } from "./stages";

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
  /** Its permission bits in the sandbox; read-only (0444) when absent. */
  mode?: number;
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
  /**
   * The compile stage's limits; required when the runtime compiles. With `exportMaxBytes`, a
   * successful compile's files in `{out}` come back in the result (for the run cache).
   */
  compile?: (StageLimits & { exportMaxBytes?: number | undefined }) | undefined;
  /** A compile's files from an earlier run of the same sources: the compile is skipped. */
  artifacts?: Artifact[] | undefined;
  signal?: AbortSignal | undefined;
  /** A live run: output reported as it comes, stdin left open for `io` (`stdin` is then unused), signals. */
  io?: LiveIo | undefined;
  /**
   * The output is shown by a terminal emulator (the shared terminal): the program is told it
   * may use colours (TERM, FORCE_COLOR), which a Piston client reading plain text is not.
   */
  colour?: boolean | undefined;
}

/** One stage's limits (Piston's timeout, CPU time and memory limit). */
export interface StageLimits {
  timeoutMs: number;
  cpuTimeMs: number;
  memoryBytes: number;
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
  /** A compiled run's marker nonce (see stages.ts); not sent to the launcher. */
  nonce?: string;
}

const WORK_DIR = "/box";
/** `{out}`: where a compile writes what its run needs, inside the run's private /tmp. */
const OUT_DIR = "/tmp/out";
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
  const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
  // The launch's CPU bound covers the longer stage; a compiled run's shell sets each stage's own.
  const cpuSeconds = seconds(Math.max(job.cpuTimeMs, job.compile?.cpuTimeMs ?? 0));
  // The launch holds one descriptor per file until bwrap has copied it in (then closes it), so
  // a project of many files needs that many more; the program's own budget stays maxOpenFiles.
  const openFiles = config.maxOpenFiles + allFiles(job).length;
  const rlimits: [string, number, number][] = [
    ["NOFILE", openFiles, openFiles],
    ["FSIZE", config.maxFileSizeBytes, config.maxFileSizeBytes],
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
  const run = [...expandCommand(job.runtime.run, job), ...job.args];
  const compile = job.artifacts ? undefined : job.runtime.compile;
  const nonce = compile ? randomBytes(12).toString("hex") : undefined;
  const program =
    compile && nonce
      ? [
          "/bin/sh",
          "-c",
          compileThenRun({
            nonce,
            compile: expandCommand(compile, job),
            run,
            compileCpuSeconds: seconds(job.compile?.cpuTimeMs ?? job.cpuTimeMs),
            runCpuSeconds: seconds(job.cpuTimeMs),
            exportMaxFileBytes: job.compile?.exportMaxBytes,
          }),
        ]
      : run;
  const argv = [
    config.tools.bwrap,
    ...bwrapArgs(config, job),
    ...(slot.uid === undefined ? processBound(config) : []),
    ...program,
  ];
  return {
    argv,
    files: allFiles(job).map((f) => f.content.toString("base64")),
    stdin: job.io ? null : Buffer.from(job.stdin).toString("base64"),
    rlimits,
    uid: slot.uid ?? null,
    ...(nonce ? { nonce } : {}),
  };
}

/**
 * A command's argv for this run, its placeholders filled in (see the language record's
 * LanguageCommand): `{sources}` alone becomes one argument per source of the entry's folder.
 */
export function expandCommand(template: readonly string[], job: SandboxJob): string[] {
  const entry = job.files[0]?.name ?? job.runtime.defaultFile;
  const slash = entry.lastIndexOf("/");
  const folder = slash < 0 ? "" : entry.slice(0, slash);
  const base = entry.slice(slash + 1);
  const dot = base.lastIndexOf(".");
  const values: Record<string, string> = {
    file: `${WORK_DIR}/${entry}`,
    stem: dot > 0 ? base.slice(0, dot) : base,
    dir: folder ? `${WORK_DIR}/${folder}` : WORK_DIR,
    out: OUT_DIR,
  };
  const fill = (arg: string) =>
    arg.replace(/\{(file|stem|dir|out)\}/g, (_, name: string) => values[name] ?? "");
  return template.flatMap((arg) => (arg === "{sources}" ? sourcesOf(job, entry, folder) : [fill(arg)]));
}

/** The entry, then every other file of its folder (and below) with a source extension, by path. */
function sourcesOf(job: SandboxJob, entry: string, folder: string): string[] {
  const extensions = new Set(job.runtime.extensions);
  const others = job.files
    .map((f) => f.name)
    .filter((name) => name !== entry && (folder === "" || name.startsWith(`${folder}/`)))
    .filter((name) => extensions.has(name.slice(name.lastIndexOf(".") + 1).toLowerCase()))
    .sort();
  return [entry, ...others].map((name) => `${WORK_DIR}/${name}`);
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
    ...(job.colour ? ["--setenv", "TERM", "xterm-256color", "--setenv", "FORCE_COLOR", "1"] : []),
    ...Object.entries(job.runtime.env).flatMap(([name, value]) => [
      "--setenv",
      name,
      expandCommand([value], job)[0] ?? "",
    ]),
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
    ...(job.runtime.compile ? ["--dir", OUT_DIR] : []),
    "--size",
    String(config.tmpfsBytes),
    "--tmpfs",
    WORK_DIR,
  ];
  allFiles(job).forEach((file, i) => {
    const mode = (file.mode ?? 0o444).toString(8).padStart(4, "0");
    args.push("--perms", mode, "--file", String(FIRST_FILE_FD + i), file.path);
  });
  // Last: the bwrap root and /dev are writable tmpfs until remounted read-only.
  args.push("--remount-ro", "/dev", "--remount-ro", "/", "--chdir", WORK_DIR);
  return args;
}

function allFiles(job: SandboxJob): ExtraFile[] {
  return [
    ...job.files.map((f) => ({ path: `${WORK_DIR}/${f.name}`, content: f.content })),
    ...(job.extraFiles ?? []),
    // Owner bits only: the program runs as the file's owner inside the sandbox.
    ...(job.artifacts ?? []).map((a) => ({
      path: `${OUT_DIR}/${a.path}`,
      content: a.content,
      mode: a.mode & 0o700,
    })),
  ];
}

/** Why the server killed a run; `stopped` is a live run's SIGKILL (a Stop that SIGINT did not end). */
type KillReason = "timeout" | "aborted" | "memory" | "stopped" | StreamName;

/** A launcher waiting in its slot's cgroups for one run. */
export interface ParkedSandbox {
  /** False once the launcher is gone (used, discarded or died). */
  readonly isReady: boolean;
  /**
   * Runs one job and resolves with Piston's stage results (a compiled language's compile, and
   * its run unless the compile failed). Never rejects for anything the
   * program does; rejects with runCancelled when `signal` aborted it, and with an Error when
   * the sandbox could not start at all.
   */
  run(job: SandboxJob): Promise<SandboxResult>;
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
      const { nonce, ...launch } = plan;
      used = true;
      const started = performance.now();
      let killedFor: KillReason | undefined;
      const stop = (reason: KillReason) => {
        killedFor ??= reason;
        kill();
      };
      const onText = job.io?.onOutput;
      const compiling = job.compile && nonce ? job.compile : undefined;
      // A compiled run's first stage is the compile: its limits, its output, its timer.
      let stage: "compile" | "run" = compiling ? "compile" : "run";
      const captures = {
        compile: new OutputCapture(config.outputMaxBytes, (stream) => stop(stream), onText),
        run: new OutputCapture(config.outputMaxBytes, (stream) => stop(stream), onText),
      };
      let compiled: Promise<StageResult> | undefined;
      let artifacts: Artifact[] | undefined;
      let timer: NodeJS.Timeout | undefined;
      const startTimer = (ms: number) => {
        clearTimeout(timer);
        timer = setTimeout(() => stop("timeout"), ms);
      };
      const exportMaxBytes = compiling?.exportMaxBytes;
      const splitter =
        compiling && nonce
          ? new StageSplitter(
              nonce,
              {
                output: (which, stream, chunk) => captures[which].push(stream, chunk),
                exported: (files) => {
                  artifacts = files;
                },
                compiled: (code) => {
                  compiled = compileResult(code);
                  if (code === 0) {
                    stage = "run";
                    startTimer(job.timeoutMs);
                    void slot.cgroup?.limit(job.memoryBytes);
                  }
                },
              },
              exportMaxBytes !== undefined,
              exportMaxBytes,
            )
          : undefined;
      // The compile's result the moment its marker arrives: its output so far and the group's meters.
      const compileResult = async (code: number): Promise<StageResult> => {
        const wallTime = Math.round(performance.now() - started);
        const exit = outcome(undefined, { code, signal: null }, false, 0);
        job.io?.onStage?.("compile", { code: exit.code, signal: exit.signal });
        if (code === 0) job.io?.onStage?.("run");
        const usage = await slot.cgroup?.collect();
        captures.compile.close();
        return {
          ...captures.compile.result(),
          ...outcome(undefined, { code, signal: null }, usage?.isOomKilled ?? false, 0),
          cpu_time: usage?.cpuMs ?? null,
          wall_time: wallTime,
          memory: usage?.memory ?? null,
        };
      };
      child.stdout.on("data", (chunk: Buffer) =>
        splitter ? splitter.push("stdout", chunk) : captures.run.push("stdout", chunk),
      );
      child.stderr.on("data", (chunk: Buffer) =>
        splitter ? splitter.push("stderr", chunk) : captures.run.push("stderr", chunk),
      );
      job.io?.onStage?.(stage);
      // False when the stage's memory limit is below what the waiting launcher already holds.
      if ((await slot.cgroup?.begin(compiling?.memoryBytes ?? job.memoryBytes)) === false) stop("memory");
      else {
        const json = JSON.stringify(launch);
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
      startTimer(compiling?.timeoutMs ?? job.timeoutMs);
      const onAbort = () => stop("aborted");
      job.signal?.addEventListener("abort", onAbort, { once: true });
      if (job.signal?.aborted) stop("aborted");

      const end = await child.closed;
      splitter?.flush();
      job.io?.finish();
      clearTimeout(timer);
      job.signal?.removeEventListener("abort", onAbort);
      const wallTime = Math.round(performance.now() - started);
      captures.compile.close();
      captures.run.close();
      const usage = await slot.cgroup?.collect();
      if (killedFor === "aborted") throw runCancelled();
      if (end?.code === LAUNCHER_FAILED && captures.run.stderr.startsWith(LAUNCHER_PREFIX)) {
        throw new Error(`the sandbox could not start: ${captures.run.stderr.trim()}`);
      }
      const ended = (capture: OutputCapture, timeoutMs: number, since: { cpu: number; wall: number }) => ({
        ...capture.result(),
        ...outcome(killedFor, end, killedFor === "memory" || (usage?.isOomKilled ?? false), timeoutMs),
        cpu_time: usage?.cpuMs != null ? usage.cpuMs - since.cpu : null,
        wall_time: wallTime - since.wall,
        memory: usage?.memory ?? null,
      });
      if (!compiling) return { run: ended(captures.run, job.timeoutMs, { cpu: 0, wall: 0 }) };
      if (!compiled) {
        // The compile never finished: killed for its time, memory or output, or Stopped.
        const result = ended(captures.compile, compiling.timeoutMs, { cpu: 0, wall: 0 });
        job.io?.onStage?.("compile", { code: result.code, signal: result.signal });
        return { compile: result };
      }
      const compile = await compiled;
      if (compile.code !== 0) return { compile };
      return {
        compile,
        run: ended(captures.run, job.timeoutMs, { cpu: compile.cpu_time ?? 0, wall: compile.wall_time ?? 0 }),
        ...(artifacts ? { artifacts } : {}),
      };
    },
  };
}

/** What one sandbox returns: a compiled language's compile, and the run unless the compile failed. */
export interface SandboxResult {
  compile?: StageResult;
  run?: StageResult;
  /** A successful compile's files, when the job asked to export them. */
  artifacts?: Artifact[];
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
