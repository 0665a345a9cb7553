import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import { Readable, Writable } from "node:stream";
import type { StageResult } from "@ensemble/protocol";
import { OutputCapture, type StreamName } from "./capture";
import type { RunCgroup } from "./cgroups";
import { RunAbortedError } from "./queue";
import type { LocalRuntime } from "./runtimes";

/** The host tools of the launch chain and the limits every run gets. */
export interface SandboxConfig {
  tools: { setpriv: string; prlimit: string; bwrap: string };
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
 * A file the sandbox gets besides the user's, through a pipe like theirs. `setup` sets Node's
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

/** One run: what to execute, as whom, with which limits. */
export interface SandboxJob {
  runtime: LocalRuntime;
  /** The first file runs; each is handed to bwrap through a pipe, never written on the host. */
  files: { name: string; content: Buffer }[];
  /** Files outside the work folder that the runtime needs (see ExtraFile). */
  extraFiles?: ExtraFile[];
  args: string[];
  stdin: string;
  timeoutMs: number;
  cpuTimeMs: number;
  memoryBytes: number;
  /** The slot's unprivileged host uid; undefined when the server itself is not root. */
  uid: number | undefined;
  cgroup: RunCgroup | undefined;
  signal?: AbortSignal | undefined;
}

const WORK_DIR = "/box";
const FIRST_FILE_FD = 3;

/**
 * The exec chain of one run, as argv: setpriv drops to the slot's uid with no capabilities,
 * prlimit sets the rlimits, and bwrap builds the namespaces and the read-only filesystem.
 * Each step `exec`s the next, so the pid Node spawned is bwrap in the end, and killing it
 * tears the whole sandbox down. With cgroups, bwrap reports its child's pid and waits on a
 * pipe before running anything of the program, so the server can move both bwrap processes
 * into the run's groups first (see `joinCgroups`).
 */
export function buildCommand(config: SandboxConfig, job: SandboxJob): string[] {
  const { tools } = config;
  const cpuSeconds = Math.max(1, Math.ceil(job.cpuTimeMs / 1000));
  const chain: string[] = [];
  if (job.uid !== undefined) {
    chain.push(
      tools.setpriv,
      `--reuid=${job.uid}`,
      `--regid=${job.uid}`,
      "--clear-groups",
      "--inh-caps=-all",
    );
  }
  chain.push(
    tools.prlimit,
    // RLIMIT_NPROC counts per real uid, so it is only meaningful with a uid of the slot's own.
    ...(job.uid !== undefined ? [`--nproc=${config.maxProcesses}`] : []),
    `--nofile=${config.maxOpenFiles}`,
    `--fsize=${config.maxFileSizeBytes}`,
    "--core=0",
    `--cpu=${cpuSeconds}:${cpuSeconds + 1}`,
    // Without a memory cgroup, address space is the only (per-process) memory bound left.
    ...(job.cgroup ? [] : [`--as=${Math.max(1024 ** 3, job.memoryBytes * 4)}`]),
    "--",
  );
  chain.push(tools.bwrap, ...bwrapArgs(config, job));
  chain.push(job.runtime.binary, ...job.runtime.flags({ memoryBytes: job.memoryBytes }));
  chain.push(`${WORK_DIR}/${job.files[0]?.name ?? job.runtime.defaultFile}`, ...job.args);
  return chain;
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
  if (job.cgroup) {
    const status = FIRST_FILE_FD + allFiles(job).length;
    args.push("--json-status-fd", String(status), "--block-fd", String(status + 1));
  }
  return args;
}

function allFiles(job: SandboxJob): ExtraFile[] {
  return [
    ...job.files.map((f) => ({ path: `${WORK_DIR}/${f.name}`, content: f.content })),
    ...(job.extraFiles ?? []),
  ];
}

type KillReason = "timeout" | "aborted" | StreamName;

/**
 * Runs one job and resolves with Piston's stage result. Never rejects for anything the
 * program does; rejects with RunAbortedError when `signal` aborted it, and with an Error when
 * the sandbox could not start at all.
 */
export function runInSandbox(config: SandboxConfig, job: SandboxJob): Promise<StageResult> {
  const [file, ...argv] = buildCommand(config, job);
  if (!file) throw new Error("empty command");
  const started = performance.now();
  const child = spawn(file, argv, {
    stdio: [
      "pipe",
      "pipe",
      "pipe",
      ...allFiles(job).map(() => "pipe" as const),
      ...(job.cgroup ? (["pipe", "pipe"] as const) : []),
    ],
    detached: true,
    // Nothing of the server's environment (secrets included) reaches the chain; bwrap clears it again.
    env: { PATH: "/usr/bin:/bin", LANG: "C.UTF-8" },
  });
  let killedFor: KillReason | undefined;
  const kill = (reason: KillReason) => {
    killedFor ??= reason;
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      child.kill("SIGKILL");
    }
  };
  if (child.pid !== undefined && config.nice > 0) {
    try {
      // Lower priority for the run (inherited by all it forks): the server's own loop wins the CPU.
      os.setPriority(child.pid, config.nice);
    } catch {
      // The process may already be gone.
    }
  }
  const capture = new OutputCapture(config.outputMaxBytes, (stream) => kill(stream));
  child.stdout.on("data", (chunk: Buffer) => capture.push("stdout", chunk));
  child.stderr.on("data", (chunk: Buffer) => capture.push("stderr", chunk));

  // A program that exits without reading makes these writes fail with EPIPE: harmless, and
  // without a listener it would be an uncaught error that takes the server down.
  for (const stream of child.stdio.slice(FIRST_FILE_FD)) stream?.on("error", () => {});
  child.stdin.on("error", () => {});
  const files = allFiles(job);
  files.forEach((f, i) => {
    const pipe = child.stdio[FIRST_FILE_FD + i];
    if (pipe && "end" in pipe) pipe.end(f.content);
  });
  child.stdin.end(job.stdin);
  let joinError: Error | undefined;
  if (job.cgroup) {
    const status = child.stdio[FIRST_FILE_FD + files.length];
    const block = child.stdio[FIRST_FILE_FD + files.length + 1];
    joinCgroups(child.pid, job.cgroup, status, block).catch((error: unknown) => {
      joinError = error instanceof Error ? error : new Error(String(error));
      kill("aborted");
    });
  }

  const timer = setTimeout(() => kill("timeout"), job.timeoutMs);
  const onAbort = () => kill("aborted");
  job.signal?.addEventListener("abort", onAbort, { once: true });
  if (job.signal?.aborted) kill("aborted");

  return new Promise<StageResult>((resolve, reject) => {
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let spawnError: Error | undefined;
    child.on("error", (error) => {
      spawnError = error;
    });
    child.on("exit", (code, signal) => {
      exit = { code, signal };
      // Everything in the sandbox died with its PID namespace; a pipe still open after this
      // would be a leak, not output.
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, 1000).unref();
    });
    child.on("close", async () => {
      clearTimeout(timer);
      job.signal?.removeEventListener("abort", onAbort);
      const wallTime = Math.round(performance.now() - started);
      capture.close();
      try {
        const usage = await job.cgroup?.collect();
        if (spawnError && !exit) return reject(spawnError);
        if (joinError) return reject(joinError);
        if (killedFor === "aborted") return reject(new RunAbortedError("Run cancelled"));
        resolve({
          stdout: capture.stdout,
          stderr: capture.stderr,
          output: capture.output,
          ...outcome(killedFor, exit, usage?.isOomKilled ?? false, job.timeoutMs),
          truncated: capture.truncated,
          cpu_time: usage?.cpuMs ?? null,
          wall_time: wallTime,
          memory: usage?.memory ?? null,
        });
      } catch (error) {
        reject(error);
      }
    });
  });
}

/**
 * Puts the sandbox into the run's cgroups before the program exists: bwrap has made its
 * namespaces (a user namespace is far slower to create inside a non-root v1 memory group on
 * this kernel) and waits on the block pipe; its pid and its child's join every group, then
 * the pipe releases it and the program starts inside the limits, forks included.
 */
async function joinCgroups(
  outerPid: number | undefined,
  cgroup: RunCgroup,
  status: Readable | Writable | null | undefined,
  block: Readable | Writable | null | undefined,
): Promise<void> {
  if (outerPid === undefined || !(status instanceof Readable) || !(block instanceof Writable)) {
    throw new Error("sandbox pipes missing");
  }
  const childPid = await new Promise<number>((resolve, reject) => {
    let text = "";
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const match = text.match(/"child-pid":\s*(\d+)/);
      if (match) {
        status.off("end", onEnd);
        resolve(Number(match[1]));
      }
    };
    const onEnd = () => reject(new Error("the sandbox exited before starting"));
    status.on("data", onData);
    status.once("end", onEnd);
  });
  for (const file of cgroup.procsFiles) {
    await fs.writeFile(file, String(outerPid));
    await fs.writeFile(file, String(childPid));
  }
  block.end("go");
}

type Outcome = Pick<StageResult, "code" | "signal" | "status" | "message">;

const SIGXCPU = os.constants.signals.SIGXCPU;

/** Piston's vocabulary for how a run ended. bwrap reports "died of signal n" as exit 128+n. */
export function outcome(
  killedFor: KillReason | undefined,
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined,
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
