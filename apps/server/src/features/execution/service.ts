import path from "node:path";
import {
  EXECUTION_MESSAGES,
  type ExecuteRequest,
  type ExecuteResponse,
  type Language,
  LIMIT_FIELDS,
  type LimitField,
  type Runtime,
  runFileNameProblem,
  type StageResult,
} from "@ensemble/protocol";
import type { Config } from "../../env";
import { DomainError } from "../../errors";
import type { Limiters } from "../../limiter";
import type { Logger } from "../../logger";
import { badRunRequest, isRunCancelled, runnerUnavailable, runRateLimited } from "./errors";
import type { LiveIo } from "./liveIo";
import { createLocalRunner, type LocalRunner } from "./local";
import { RunQueue } from "./queue";
import { createRemoteRunner, type RemoteRunner } from "./remote";
import { RunCache } from "./runCache";
import { type LocalRuntime, matchRuntime } from "./runtimes";

export interface ExecuteOptions {
  /** Aborting it cancels the run, waiting or running (the client went away). */
  signal?: AbortSignal | undefined;
  /** Who the per-user rate limit counts this run against. */
  rateKey: string;
  /**
   * A live run: output as it is produced, stdin open while it runs, signals (see LiveIo).
   * With PISTON_URL the run is live through the Piston server's `/api/v2/connect`.
   */
  io?: LiveIo | undefined;
  /** Called once the request is accepted (valid, within the rate), before it waits for a slot. */
  onStart?: ((runtime: { language: string; version: string }) => void) | undefined;
  /** The wall clock the server chose for this run (a live terminal run waits for people), over the default. */
  timeoutMs?: number | undefined;
  /**
   * Who may reuse this run's compiled program for a re-run of the same sources (a session's
   * id); without it the run compiles every time (the Piston API's runs).
   */
  cacheScope?: string | undefined;
  /** The output goes to the shared terminal, which renders colours (see SandboxJob.colour). */
  colour?: boolean | undefined;
}

/** A project to run: its files by path inside the work folder, the first one the entry. */
export interface ProjectRun {
  language: Language;
  files: { path: string; content: string }[];
  stdin?: string | undefined;
  args?: string[] | undefined;
}

/** Why a run failed for the runner rather than the program (see RunObserver). */
export type RunnerFailure = "sandbox" | "piston" | "unavailable";

/** What the service reports of runs (metrics). */
export interface RunObserver {
  /** A run finished, whatever its program did, after holding its slot `seconds`. */
  ran(language: string, seconds: number): void;
  /**
   * A run failed for the runner: the sandbox did not start (`sandbox`), the Piston server
   * failed (`piston`), or this server cannot run code at all (`unavailable`).
   */
  runnerFailed(reason: RunnerFailure): void;
}

const UNOBSERVED: RunObserver = { ran: () => {}, runnerFailed: () => {} };

/**
 * Runs code: validates a Piston request against the installed runtimes and the configured
 * maxima, rate-limits per user, and queues the run (at most RUN_CONCURRENCY at once, a
 * bounded FIFO behind them). Runs go to the built-in sandbox, or to PISTON_URL when set.
 */
export function createExecutionService(
  config: Config,
  limiters: Limiters,
  logger: Logger,
  observer: RunObserver = UNOBSERVED,
) {
  const queue = new RunQueue(config.RUN_CONCURRENCY, config.RUN_QUEUE_MAX);
  const remote: RemoteRunner | undefined = config.PISTON_URL
    ? createRemoteRunner(config.PISTON_URL)
    : undefined;
  const local: LocalRunner | undefined = remote
    ? undefined
    : createLocalRunner(config, logger, queue.concurrency);
  if (remote) logger.info({ piston: config.PISTON_URL }, "code runner: forwarding runs to a Piston server");
  const rate = limiters.create({
    name: "runs",
    points: config.RUN_RATE_MAX,
    durationSeconds: config.RUN_RATE_WINDOW_SECONDS,
  });
  const shutdown = new AbortController();
  const cache =
    local && config.RUN_CACHE_MAX_BYTES > 0
      ? new RunCache(
          path.join(config.DATA_DIR, "run-cache", String(config.PORT)),
          config.RUN_CACHE_MAX_BYTES,
          logger,
        )
      : undefined;

  const maxima: Record<LimitField, number> = {
    compile_memory_limit: config.COMPILE_MEMORY_LIMIT_BYTES,
    run_memory_limit: config.RUN_MEMORY_LIMIT_BYTES,
    compile_timeout: config.COMPILE_TIMEOUT_MS,
    run_timeout: config.RUN_TIMEOUT_MS,
    compile_cpu_time: config.COMPILE_CPU_TIME_MS,
    run_cpu_time: config.RUN_CPU_TIME_MS,
  };

  async function localRuntimes(): Promise<LocalRuntime[]> {
    const state = await (local as LocalRunner).ready;
    if (!state.available) {
      observer.runnerFailed("unavailable");
      throw runnerUnavailable(state.reason ?? EXECUTION_MESSAGES.unavailable);
    }
    return state.runtimes;
  }

  function resolve(runtimes: LocalRuntime[], language: string, version: string): LocalRuntime {
    const found = matchRuntime(runtimes, language, version);
    if (!found) throw badRunRequest(`${language}-${version} runtime is unknown`);
    return found;
  }

  function checkLimits(request: ExecuteRequest) {
    for (const field of LIMIT_FIELDS) {
      if (isNoMemoryLimit(field, request[field])) continue;
      const value = request[field];
      if (value === undefined) continue;
      if (value > maxima[field]) {
        throw badRunRequest(`${field} cannot exceed the configured limit of ${maxima[field]}`);
      }
      if (value < 0) throw badRunRequest(`${field} must be non-negative`);
    }
  }

  async function checkRate(key: string) {
    const retryAfter = await rate.take(key);
    if (retryAfter > 0) throw runRateLimited(retryAfter);
  }

  /** Runs `task` in a slot, reporting its time under the language `languageOf` its result names, or its failure. */
  function queued<T>(
    task: (slot: number) => Promise<T>,
    signal: AbortSignal | undefined,
    languageOf: (result: T) => string,
  ): Promise<T> {
    return queue.run(async (slot) => {
      const started = performance.now();
      let result: T;
      try {
        result = await task(slot);
      } catch (error) {
        const failure = runnerFailureOf(error);
        if (failure) observer.runnerFailed(failure);
        throw error;
      }
      observer.ran(languageOf(result), (performance.now() - started) / 1000);
      return result;
    }, jobSignal(signal));
  }

  /** Piston's request as the sandbox takes it. Program failures are results; refusals throw a DomainError. */
  async function execute(request: ExecuteRequest, options: ExecuteOptions): Promise<ExecuteResponse> {
    if (remote) {
      checkNames(request.files.flatMap((file) => (file.name === undefined ? [] : [file.name])));
      await checkRate(options.rateKey);
      options.onStart?.({ language: request.language, version: request.version });
      const { io } = options;
      // The Piston server's answer names the language (an alias resolved), not the request.
      const answered = (response: ExecuteResponse) => response.language;
      if (!io) return queued(() => remote.execute(request, options.signal), options.signal, answered);
      return queued(() => remote.live(request, io, options.signal), options.signal, answered).finally(() =>
        io.finish(),
      );
    }
    const runtime = resolve(await localRuntimes(), request.language, request.version);
    checkLimits(request);
    const limits = withoutNoLimits(request);
    const files = request.files.map((file, i) => ({
      name: file.name ?? (i === 0 ? runtime.defaultFile : `file${i}.code`),
      content: Buffer.from(file.content, file.encoding ?? "utf8"),
    }));
    checkNames(files.map((file) => file.name));
    await checkRate(options.rateKey);
    options.onStart?.(runtime);
    // As Piston: stdin always ends with a newline, so input() on empty stdin reads "".
    const stdin = request.stdin ?? "";
    const job = {
      runtime,
      files,
      args: request.args ?? [],
      stdin: stdin.endsWith("\n") ? stdin : `${stdin}\n`,
      timeoutMs:
        limits.run_timeout ?? options.timeoutMs ?? runtime.limits.runTimeoutMs ?? config.RUN_TIMEOUT_MS,
      cpuTimeMs: limits.run_cpu_time ?? runtime.limits.runCpuTimeMs ?? config.RUN_CPU_TIME_MS,
      memoryBytes: limits.run_memory_limit ?? runtime.limits.runMemoryBytes ?? config.RUN_MEMORY_LIMIT_BYTES,
      colour: options.colour,
      ...(runtime.compile
        ? {
            compile: {
              timeoutMs:
                limits.compile_timeout ?? runtime.limits.compileTimeoutMs ?? config.COMPILE_TIMEOUT_MS,
              cpuTimeMs:
                limits.compile_cpu_time ?? runtime.limits.compileCpuTimeMs ?? config.COMPILE_CPU_TIME_MS,
              memoryBytes:
                limits.compile_memory_limit ??
                runtime.limits.compileMemoryBytes ??
                config.COMPILE_MEMORY_LIMIT_BYTES,
            },
          }
        : {}),
    };
    const runner = local as LocalRunner;
    const key =
      cache && runtime.compile && options.cacheScope
        ? RunCache.key(options.cacheScope, runtime, files)
        : undefined;
    const artifacts = key ? await cache?.get(key) : undefined;
    if (artifacts) {
      const { run } = await queued(
        (slot) => runner.run({ ...job, artifacts, signal: jobSignal(options.signal), io: options.io }, slot),
        options.signal,
        () => runtime.language,
      );
      return {
        language: runtime.language,
        version: runtime.version,
        compile: CACHED_COMPILE,
        ...(run ? { run } : {}),
      };
    }
    const exportMaxBytes = key ? config.RUN_TMPFS_BYTES : undefined;
    const withExport = job.compile ? { ...job, compile: { ...job.compile, exportMaxBytes } } : job;
    const { artifacts: built, ...result } = await queued(
      (slot) => runner.run({ ...withExport, signal: jobSignal(options.signal), io: options.io }, slot),
      options.signal,
      () => runtime.language,
    );
    // Kept before answering, so a re-run that follows at once finds it.
    if (key && built && result.compile?.code === 0) await cache?.put(key, built);
    return { language: runtime.language, version: runtime.version, ...result };
  }

  return {
    queue,
    isRemote: remote !== undefined,
    /** The built-in sandbox's state once its start-up checks ran; undefined with PISTON_URL. */
    sandbox: () => local?.ready,

    /** GET /api/v2/runtimes: what this server (or its Piston) can run. */
    async runtimes(): Promise<Runtime[]> {
      if (remote) return remote.runtimes();
      return (await localRuntimes()).map(({ language, version, aliases, runtime }) => ({
        language,
        version,
        aliases,
        ...(runtime ? { runtime } : {}),
      }));
    },

    /** POST /api/v2/execute, as Piston answers it: the first file runs. */
    execute,

    /**
     * Runs a project with the newest runtime of its language: every file is written under the
     * work folder at its path (folders created), and the first one runs from there, so it can
     * require or import its siblings. Refusals throw a DomainError.
     */
    runProject(project: ProjectRun, options: ExecuteOptions): Promise<ExecuteResponse> {
      return execute(
        {
          language: project.language,
          version: "*",
          files: project.files.map((file) => ({ name: file.path, content: file.content })),
          stdin: project.stdin,
          args: project.args,
        },
        options,
      );
    },

    /** Cancels every waiting and running run, then frees the sandbox's uids and cgroups. */
    async close() {
      shutdown.abort();
      await local?.close();
    },
  };

  function jobSignal(signal: AbortSignal | undefined): AbortSignal {
    return signal ? AbortSignal.any([signal, shutdown.signal]) : shutdown.signal;
  }
}

/**
 * A run's error that is the runner's failure: the Piston server's (bad_gateway), or anything
 * that is not ours, which the sandbox throws when it cannot start. A cancellation or a refusal
 * (the Piston server's 400) is not one.
 */
function runnerFailureOf(error: unknown): RunnerFailure | undefined {
  if (isRunCancelled(error)) return undefined;
  if (error instanceof DomainError) return error.code === "bad_gateway" ? "piston" : undefined;
  return "sandbox";
}

/** The compile of a re-run that reused the program an earlier run of the same sources built. */
const CACHED_COMPILE: StageResult = {
  stdout: "",
  stderr: "",
  output: "",
  code: 0,
  signal: null,
  message: null,
  status: null,
  cpu_time: 0,
  wall_time: 0,
  memory: null,
  cached: true,
};

/** A Piston server's finished answer told to a live run's listener, stage by stage. */
/**
 * Piston's "no memory limit": a negative memory limit (the published `piston-client` sends -1
 * by default). Piston skips its checks when its own maximum is "none" and then sets no rlimit;
 * ours always has a maximum, so the run gets that. Negative timeouts and CPU times are refused,
 * as Piston refuses them with its positive default maxima.
 */
function isNoMemoryLimit(field: LimitField, value: number | undefined): boolean {
  return value !== undefined && value < 0 && field.endsWith("_memory_limit");
}

/** The request with each "no memory limit" taken out, so it takes the server's maximum. */
function withoutNoLimits(request: ExecuteRequest): ExecuteRequest {
  const out = { ...request };
  for (const field of LIMIT_FIELDS) if (isNoMemoryLimit(field, out[field])) out[field] = undefined;
  return out;
}

/**
 * Each name a safe path under the work folder, no two alike, and none both a file and the
 * folder of another (`src` beside `src/main.js`), which the sandbox could not lay out.
 */
function checkNames(names: string[]) {
  for (const name of names) {
    const problem = runFileNameProblem(name);
    if (problem) throw badRunRequest(`files[].name ${problem}: ${JSON.stringify(name)}`);
  }
  if (new Set(names).size !== names.length) throw badRunRequest("files[].name must be unique");
  const folders = new Set(
    names.flatMap((name) =>
      name
        .split("/")
        .slice(0, -1)
        .map((_, i, parts) => parts.slice(0, i + 1).join("/")),
    ),
  );
  const clash = names.find((name) => folders.has(name));
  if (clash) throw badRunRequest(`files[].name is both a file and a folder: ${clash}`);
}

export type ExecutionService = ReturnType<typeof createExecutionService>;
