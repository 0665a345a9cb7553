import fs from "node:fs/promises";
import path from "node:path";
import type { Config } from "../../env";
import type { Logger } from "../../logger";
import { type Cgroups, detectCgroups } from "./cgroups";
import type { SandboxConfig, SandboxJob } from "./launch";
import { detectRuntimes, findUnderUsr, type LocalRuntime } from "./runtimes";
import { type ParkedSandbox, parkSandbox, type SandboxResult } from "./sandbox";
import { createSpawner } from "./spawner";
import { claimUids } from "./uids";

/** A job as the runner takes it: the runtime's own extra files are added here. */
export type LocalJob = Omit<SandboxJob, "extraFiles">;

export interface LocalRunnerState {
  available: boolean;
  /** Why runs are refused, when they are. */
  reason?: string;
  runtimes: LocalRuntime[];
  cgroups: Cgroups["mode"];
  isRoot: boolean;
  /** Host uids of the slots (empty when the server is not root). */
  uids: number[];
}

/** The sandbox's limits from the server's configuration; the tools are found at start. */
export function sandboxConfig(config: Config): SandboxConfig {
  return {
    tools: { python: "/usr/bin/python3", bwrap: "/usr/bin/bwrap", prlimit: "/usr/bin/prlimit" },
    tmpfsBytes: config.RUN_TMPFS_BYTES,
    shmBytes: Math.min(config.RUN_TMPFS_BYTES, 4 * 1024 * 1024),
    maxProcesses: config.RUN_MAX_PROCESSES,
    maxOpenFiles: config.RUN_MAX_OPEN_FILES,
    maxFileSizeBytes: config.RUN_MAX_FILE_SIZE_BYTES,
    outputMaxBytes: config.RUN_OUTPUT_MAX_BYTES,
    nice: config.RUN_NICE,
  };
}

/**
 * The built-in sandboxed runner. It checks at start that bubblewrap and python3 (which runs
 * the launcher) are here and that a trivial sandboxed program runs; otherwise every run is
 * refused with the reason (there is no unsandboxed fallback). Slot `i` of the queue runs as
 * uid `uids[i]`. Each slot keeps one launcher parked in its cgroups for its next run (see
 * parkSandbox).
 */
export function createLocalRunner(config: Config, logger: Logger, concurrency: number) {
  const sandbox = sandboxConfig(config);
  let cgroups: Cgroups | undefined;
  let uids: Awaited<ReturnType<typeof claimUids>> | undefined;
  const isRoot = process.getuid?.() === 0;
  // The launcher parked for each slot's next run; a slot without one parks on demand.
  const parked = new Map<number, Promise<ParkedSandbox | undefined>>();
  // Launchers are forked by a small helper process, not by the server (see spawner.ts).
  const spawner = createSpawner();
  let closing = false;

  const ready: Promise<LocalRunnerState> = (async () => {
    const { runtimes, problems } = await detectRuntimes();
    for (const problem of problems) logger.warn({ problem }, "code runner: language not offered");
    const base = { runtimes, cgroups: "none" as const, isRoot, uids: [] };
    const bwrap = config.BWRAP_PATH ? await executable(config.BWRAP_PATH) : await which("bwrap");
    const python = runtimes.find((r) => r.id === "python")?.run[0];
    // Only a server that shares its uid with the runs needs prlimit (see sandbox.ts processBound),
    // and bwrap starts it inside the sandbox, where only /usr is bound.
    const prlimit = isRoot ? sandbox.tools.prlimit : await findUnderUsr("prlimit", "/usr/bin:/bin");
    if (!bwrap || !python || !prlimit) {
      const missing = !bwrap
        ? "bubblewrap (bwrap) is not installed. Install it with: apt-get install bubblewrap"
        : !python
          ? "python3 is not installed (the sandbox's launcher needs it). Install it with: apt-get install python3"
          : "prlimit is not installed (a server that is not root bounds each run's processes with it). Install it with: apt-get install util-linux";
      const reason = `Code execution is not available on this server: ${missing}`;
      logger.error(reason);
      return { ...base, available: false, reason };
    }
    sandbox.tools = { python, bwrap, prlimit };
    if (isRoot) uids = await claimUids(config.RUN_UID_BASE, concurrency);
    else
      logger.warn(
        "code runner: the server is not root, so runs share its uid (each run's processes are held by RLIMIT_NPROC in its own user namespace); see docs/sandbox.md",
      );
    cgroups = await detectCgroups({
      // The group's ceiling; each stage lowers it to its own limit.
      memoryBytes: Math.max(config.RUN_MEMORY_LIMIT_BYTES, config.COMPILE_MEMORY_LIMIT_BYTES),
      maxProcesses: config.RUN_MAX_PROCESSES,
      nice: config.RUN_NICE,
    });
    if (cgroups.mode === "none") {
      logger.warn(
        { reason: cgroups.reason },
        "code runner: no cgroups, so memory and process limits are per process only (rlimits); see docs/sandbox.md",
      );
    }
    const state: LocalRunnerState = {
      ...base,
      uids: uids?.uids ?? [],
      cgroups: cgroups.mode,
      available: true,
    };
    const probe = await selfTest(runtimes[0]).catch((error: unknown) => String(error));
    if (probe !== undefined) {
      const reason = `Code execution is not available on this server: the sandbox does not start (${probe.slice(0, 300)}).`;
      logger.error(reason);
      return { ...state, available: false, reason };
    }
    for (let slot = 1; slot < concurrency; slot += 1) parkNext(slot);
    logger.info(
      {
        cgroups: cgroups.mode,
        uids: uids?.uids,
        runtimes: runtimes.map((r) => `${r.language} ${r.version}`),
      },
      "code runner ready (bubblewrap sandbox)",
    );
    return state;
  })();

  async function park(slot: number): Promise<ParkedSandbox> {
    return parkSandbox(
      sandbox,
      { uid: uids?.uids[slot], cgroup: await cgroups?.prepare(slot) },
      spawner.spawn,
    );
  }

  /**
   * Frees the slot after a run (`used`) and parks its next launcher, in the background: the
   * run's caller already has its result, and the slot's next run waits for this in `take`.
   */
  function parkNext(slot: number, used?: ParkedSandbox) {
    const next = (async () => {
      await used?.release();
      return closing ? undefined : park(slot);
    })();
    // A failed park is retried by the slot's next run, which reports the error if it fails again.
    next.catch((error: unknown) =>
      logger.warn({ err: error, slot }, "code runner: could not park a launcher"),
    );
    parked.set(slot, next);
  }

  async function take(slot: number): Promise<ParkedSandbox> {
    const waiting = parked.get(slot);
    parked.delete(slot);
    const box = await waiting?.catch(() => undefined);
    if (box?.isReady) return box;
    await box?.release();
    return park(slot);
  }

  async function run(job: LocalJob, slot: number): Promise<SandboxResult> {
    const box = await take(slot);
    try {
      return await box.run({ ...job, extraFiles: job.runtime.extraFiles });
    } finally {
      parkNext(slot, box);
    }
  }

  // An empty program through the whole chain: catches a kernel without user namespaces,
  // a broken bwrap or unwritable cgroups at start rather than on a user's first run.
  async function selfTest(runtime: LocalRuntime | undefined): Promise<string | undefined> {
    if (!runtime) return undefined;
    const result = await run(
      {
        runtime,
        files: [{ name: runtime.defaultFile, content: Buffer.from("") }],
        args: [],
        stdin: "",
        timeoutMs: 10_000,
        cpuTimeMs: 10_000,
        memoryBytes: config.RUN_MEMORY_LIMIT_BYTES,
      },
      0,
    );
    const stage = result.run ?? result.compile;
    return stage?.code === 0 ? undefined : `exit ${stage?.code ?? stage?.signal}: ${stage?.stderr.trim()}`;
  }

  return {
    ready,
    run,
    async close() {
      closing = true;
      await ready.catch(() => {});
      for (const waiting of parked.values()) await (await waiting.catch(() => undefined))?.release();
      parked.clear();
      await spawner.close();
      await cgroups?.close();
      await uids?.release();
    },
  };
}

export type LocalRunner = ReturnType<typeof createLocalRunner>;

async function which(command: string): Promise<string | undefined> {
  for (const dir of ["/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/bin"]) {
    const found = await executable(path.join(dir, command));
    if (found) return found;
  }
  return undefined;
}

async function executable(file: string): Promise<string | undefined> {
  return fs.access(file, fs.constants.X_OK).then(
    () => file,
    () => undefined,
  );
}
