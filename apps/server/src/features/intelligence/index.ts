import fs from "node:fs/promises";
import type { LanguageServerId } from "@ensemble/protocol";
import type { Config } from "../../env";
import type { Logger } from "../../logger";
import type { SocketEvents } from "../../realtime/handle";
import { sessionRoom } from "../../realtime/session";
import type { EditorServer } from "../../realtime/socket";
import type { WorkspaceAccess } from "../collab/index";
import { type Cgroups, claimUids, createSpawner, detectCgroups } from "../execution/index";
import { sweepStaleFolders } from "./folder";
import { ServerPool } from "./pool";
import { LANGUAGE_SERVERS } from "./servers";
import { createLanguageServerService } from "./service";
import { registerLanguageServerEvents } from "./socket";

export type { LanguageServerService } from "./service";

export interface IntelligenceFeatureDeps {
  config: Config;
  io: EditorServer;
  events: SocketEvents;
  workspace: WorkspaceAccess;
  logger: Logger;
}

/**
 * Wires the shared language servers (clangd for C and C++): sandboxed, one per session and
 * server on this node, at most LSP_MAX_SERVERS. Their diagnostics go to the session's sockets
 * on this node: every socket of a session is on its owner node (DESIGN decision 16), so each
 * node runs the servers of the sessions it holds. A node without a server's binary (or the
 * sandbox) answers `language_server_unavailable` and runs fine.
 */
export function createIntelligenceFeature({
  config,
  io,
  events,
  workspace,
  logger,
}: IntelligenceFeatureDeps) {
  const spawner = createSpawner();
  const isRoot = process.getuid?.() === 0;
  let cgroups: Cgroups | undefined;
  let releaseUids: (() => Promise<void>) | undefined;

  const ready = (async () => {
    await sweepStaleFolders();
    const binaries = new Map<LanguageServerId, string>();
    for (const record of LANGUAGE_SERVERS) {
      const binary = await findExecutable(
        config[record.binaryEnv] ? [config[record.binaryEnv] as string] : record.binaries,
      );
      if (binary) binaries.set(record.id, binary);
      else logger.info({ server: record.id }, `language server not offered: ${record.name} is not installed`);
    }
    const bwrap = await findExecutable(
      config.BWRAP_PATH ? [config.BWRAP_PATH] : ["/usr/bin/bwrap", "/bin/bwrap"],
    );
    const python = await findExecutable(["/usr/bin/python3"]);
    const prlimit = await findExecutable(["/usr/bin/prlimit"]);
    const tools = { bwrap: bwrap ?? "", python: python ?? "", prlimit: prlimit ?? "" };
    let unavailable: string | undefined =
      !bwrap || !python || (!isRoot && !prlimit)
        ? "the sandbox (bwrap, python3, prlimit) is not installed"
        : undefined;
    let uids: number[] = [];
    if (!unavailable && binaries.size > 0 && config.LSP_MAX_SERVERS > 0) {
      if (isRoot) {
        // Slot uids of their own, above the runs' (each claim is a lock file, so none is shared).
        const claimed = await claimUids(config.RUN_UID_BASE + 1024, config.LSP_MAX_SERVERS).catch(
          (error: unknown) => {
            unavailable = `no sandbox uid for the language servers (${String(error)})`;
            return undefined;
          },
        );
        uids = claimed?.uids ?? [];
        releaseUids = claimed?.release;
      }
      cgroups = await detectCgroups({
        memoryBytes: config.LSP_MEMORY_LIMIT_BYTES,
        maxProcesses: Math.max(...LANGUAGE_SERVERS.map((r) => r.maxProcesses)),
        nice: serverNice(config.RUN_NICE),
      });
      if (cgroups.mode === "none")
        logger.warn({ reason: cgroups.reason }, "language servers: no cgroups, rlimits only");
    }
    if (unavailable) logger.warn({ reason: unavailable }, "language servers are not available");
    return new ServerPool({
      records: LANGUAGE_SERVERS,
      binaries,
      ...(unavailable ? { unavailable } : {}),
      tools,
      spawn: spawner.spawn,
      cgroups,
      uids,
      maxServers: config.LSP_MAX_SERVERS,
      idleMs: config.LSP_IDLE_MS,
      memoryBytes: config.LSP_MEMORY_LIMIT_BYTES,
      nice: serverNice(config.RUN_NICE),
      workspace,
      onDiagnostics: (sessionId, server, files) =>
        io.local.to(sessionRoom(sessionId)).emit("lspDiagnostics", { sessionId, server, files }),
      logger,
    });
  })();
  ready.catch((error: unknown) => logger.error({ err: error }, "language servers could not be set up"));

  const service = createLanguageServerService(ready, logger);
  registerLanguageServerEvents(events, service);
  return {
    service,
    /** The pool once set up (tests and the health check read its size). */
    pool: ready,
    async close() {
      const pool = await ready.catch(() => undefined);
      await pool?.close();
      await spawner.close();
      await cgroups?.close();
      await releaseUids?.();
    },
  };
}

/**
 * Servers run just below the runs (nice 11, CPU weight 88 of 1024 against the runs' 110 with
 * the default RUN_NICE): a Run wins the CPU over a language server, and a busy machine does not
 * starve the servers outright (at RUN_NICE + 5, weight 36, a loaded machine stretched clangd's
 * cold start to 6 s and its completion p50 to 200 ms; bench/languageServers/RESULTS.md).
 */
function serverNice(runNice: number): number {
  return Math.min(19, runNice + 1);
}

async function findExecutable(candidates: readonly string[]): Promise<string | undefined> {
  for (const file of candidates) {
    const ok = await fs.access(file, fs.constants.X_OK).then(
      () => true,
      () => false,
    );
    if (ok) return await fs.realpath(file);
  }
  return undefined;
}
