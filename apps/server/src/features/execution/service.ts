import {
  EXECUTION_MESSAGES,
  type ExecuteRequest,
  type ExecuteResponse,
  LIMIT_FIELDS,
  type LimitField,
  type Runtime,
} from "@ensemble/protocol";
import type { Config } from "../../env";
import { HttpError } from "../../http/errors";
import { WindowCounter } from "../../http/rateLimit";
import type { Logger } from "../../logger";
import { createLocalRunner, type LocalRunner } from "./local";
import { QueueFullError, RunQueue } from "./queue";
import { createRemoteRunner, type RemoteRunner } from "./remote";
import type { LocalRuntime } from "./runtimes";
import { satisfies } from "./semver";

export interface ExecuteOptions {
  /** Aborting it cancels the run, waiting or running (the client went away). */
  signal?: AbortSignal | undefined;
  /** Who the per-user rate limit counts this run against. */
  rateKey: string;
}

/**
 * Runs code: validates a Piston request against the installed runtimes and the configured
 * maxima, rate-limits per user, and queues the run (at most RUN_CONCURRENCY at once, a
 * bounded FIFO behind them). Runs go to the built-in sandbox, or to PISTON_URL when set.
 */
export function createExecutionService(config: Config, logger: Logger) {
  const queue = new RunQueue(config.RUN_CONCURRENCY, config.RUN_QUEUE_MAX);
  const remote: RemoteRunner | undefined = config.PISTON_URL
    ? createRemoteRunner(config.PISTON_URL)
    : undefined;
  const local: LocalRunner | undefined = remote
    ? undefined
    : createLocalRunner(config, logger, queue.concurrency);
  if (remote) logger.info({ piston: config.PISTON_URL }, "code runner: forwarding runs to a Piston server");
  const rate = new WindowCounter(config.RUN_RATE_MAX, config.RUN_RATE_WINDOW_SECONDS * 1000);
  const shutdown = new AbortController();

  const maxima: Record<LimitField, number> = {
    compile_memory_limit: config.RUN_MEMORY_LIMIT_BYTES,
    run_memory_limit: config.RUN_MEMORY_LIMIT_BYTES,
    compile_timeout: config.COMPILE_TIMEOUT_MS,
    run_timeout: config.RUN_TIMEOUT_MS,
    compile_cpu_time: config.RUN_CPU_TIME_MS,
    run_cpu_time: config.RUN_CPU_TIME_MS,
  };

  async function localRuntimes(): Promise<LocalRuntime[]> {
    const state = await (local as LocalRunner).ready;
    if (!state.available)
      throw new HttpError("service_unavailable", state.reason ?? EXECUTION_MESSAGES.unavailable);
    return state.runtimes;
  }

  /** Piston's rule: the highest installed version matching the range, by language or alias. */
  function resolve<R extends Runtime>(runtimes: R[], language: string, version: string): R {
    const name = language.toLowerCase();
    const found = runtimes
      .filter((r) => (r.language === name || r.aliases.includes(name)) && satisfies(r.version, version))
      .sort((a, b) => b.version.localeCompare(a.version, undefined, { numeric: true }))[0];
    if (!found) throw new HttpError("invalid_body", `${language}-${version} runtime is unknown`);
    return found;
  }

  function checkLimits(request: ExecuteRequest) {
    for (const field of LIMIT_FIELDS) {
      const value = request[field];
      if (value === undefined) continue;
      if (value > maxima[field]) {
        throw new HttpError(
          "invalid_body",
          `${field} cannot exceed the configured limit of ${maxima[field]}`,
        );
      }
      if (value < 0) throw new HttpError("invalid_body", `${field} must be non-negative`);
    }
  }

  function checkRate(key: string) {
    const retryAfter = rate.retryAfter(key);
    if (retryAfter > 0) {
      throw new HttpError("too_many_runs", EXECUTION_MESSAGES.tooManyRuns, {
        "retry-after": String(retryAfter),
      });
    }
    rate.hit(key);
  }

  async function queued<T>(task: (slot: number) => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    const combined = signal ? AbortSignal.any([signal, shutdown.signal]) : shutdown.signal;
    try {
      return await queue.run(task, combined);
    } catch (error) {
      if (error instanceof QueueFullError) throw new HttpError("too_many_runs", EXECUTION_MESSAGES.queueFull);
      throw error;
    }
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

    /** POST /api/v2/execute. Program failures are results (200); request faults throw HttpError. */
    async execute(request: ExecuteRequest, options: ExecuteOptions): Promise<ExecuteResponse> {
      if (remote) {
        checkRate(options.rateKey);
        return queued(() => remote.execute(request, options.signal), options.signal);
      }
      const runtime = resolve(await localRuntimes(), request.language, request.version);
      checkLimits(request);
      checkRate(options.rateKey);
      const files = request.files.map((file, i) => ({
        name: file.name ?? (i === 0 ? runtime.defaultFile : `file${i}.code`),
        content: Buffer.from(file.content, file.encoding ?? "utf8"),
      }));
      const names = new Set(files.map((f) => f.name));
      if (names.size !== files.length) throw new HttpError("invalid_body", "files[].name must be unique");
      // As Piston: stdin always ends with a newline, so input() on empty stdin reads "".
      const stdin = request.stdin ?? "";
      const job = {
        runtime,
        files,
        args: request.args ?? [],
        stdin: stdin.endsWith("\n") ? stdin : `${stdin}\n`,
        timeoutMs: request.run_timeout ?? config.RUN_TIMEOUT_MS,
        cpuTimeMs: request.run_cpu_time ?? config.RUN_CPU_TIME_MS,
        memoryBytes: request.run_memory_limit ?? config.RUN_MEMORY_LIMIT_BYTES,
      };
      const runner = local as LocalRunner;
      const run = await queued(
        (slot) => runner.run({ ...job, signal: jobSignal(options.signal) }, slot),
        options.signal,
      );
      return { language: runtime.language, version: runtime.version, run };
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

export type ExecutionService = ReturnType<typeof createExecutionService>;
