import fs from "node:fs/promises";
import os from "node:os";
import { fileURLToPath } from "node:url";
import type { StageResult } from "@ensemble/protocol";
import { OutputCapture, type StreamName } from "./capture";
import { runCancelled } from "./errors";
import { buildLaunch, type SandboxConfig, type SandboxJob, type SandboxSlot } from "./launch";
import { signalProgram } from "./signalTree";
import { type Exit, killGroup, type Spawn, spawnHere } from "./spawner";
import { type Artifact, StageSplitter } from "./stages";

/** launcher.py, beside this file in the sources and beside main.js in the build. */
export const LAUNCHER = fileURLToPath(new URL("./launcher.py", import.meta.url));
/** launcher.py's exit code and stderr prefix when it could not exec bwrap. */
const LAUNCHER_FAILED = 125;
const LAUNCHER_PREFIX = "ensemble-launcher: ";

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
