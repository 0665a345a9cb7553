import { type FileDiagnostics, LANGUAGE_SERVER_MESSAGES, type LanguageServerId } from "@ensemble/protocol";
import { DomainError } from "../../errors";
import type { Logger } from "../../logger";
import type { WorkspaceAccess } from "../collab/index";
import type { Cgroups, RunCgroup, Spawn } from "../execution/index";
import { ServerInstance } from "./instance";
import type { ServerTools } from "./sandbox";
import type { LanguageServerRecord } from "./servers";

/** What the pool runs servers with; `binaries` holds each available server's binary. */
export interface PoolDeps {
  records: readonly LanguageServerRecord[];
  binaries: ReadonlyMap<LanguageServerId, string>;
  /** Why no server can run here at all (no sandbox), when so. */
  unavailable?: string;
  tools: ServerTools;
  spawn: Spawn;
  cgroups: Cgroups | undefined;
  /** Host uids of the slots when we are root (one per slot). */
  uids: readonly number[];
  maxServers: number;
  idleMs: number;
  memoryBytes: number;
  nice: number;
  workspace: WorkspaceAccess;
  onDiagnostics(sessionId: string, server: LanguageServerId, files: FileDiagnostics[]): void;
  logger: Logger;
}

interface Entry {
  starting: Promise<ServerInstance>;
  instance?: ServerInstance;
  slot: number;
  cgroup?: RunCgroup | undefined;
  idleTimer?: NodeJS.Timeout;
}

/**
 * The node's shared language servers: at most `maxServers` alive (starting ones count), one
 * per session and server, each in a slot of its own (uid, cgroup). A server nobody used for
 * `idleMs` is stopped; one that died is forgotten, and the next request starts a new one.
 * When every slot is taken, `acquire` refuses with `language_server_busy`.
 */
export class ServerPool {
  private readonly entries = new Map<string, Entry>();
  private readonly freeSlots: number[];
  /** Servers being stopped: their slots come back when they are gone. */
  private readonly stopping = new Set<Promise<void>>();
  private isClosed = false;

  constructor(private readonly deps: PoolDeps) {
    this.freeSlots = Array.from({ length: deps.maxServers }, (_, i) => i);
  }

  /** Whether `server` can run on this node at all. */
  isAvailable(server: LanguageServerId): boolean {
    return !this.deps.unavailable && this.deps.binaries.has(server) && this.deps.maxServers > 0;
  }

  /** How many servers are alive, starting or stopping (each holds its slot). */
  get size(): number {
    return this.entries.size + this.stopping.size;
  }

  /** The session's running server, if any, without starting one. */
  running(sessionId: string, server: LanguageServerId): ServerInstance | undefined {
    const instance = this.entries.get(key(sessionId, server))?.instance;
    return instance && !instance.hasExited ? instance : undefined;
  }

  /** The session's server, started when it has none (or its last one died). */
  async acquire(sessionId: string, server: LanguageServerId): Promise<ServerInstance> {
    const record = this.deps.records.find((r) => r.id === server);
    const binary = this.deps.binaries.get(server);
    if (!record || !binary || this.deps.unavailable || this.isClosed) {
      throw new DomainError("language_server_unavailable", LANGUAGE_SERVER_MESSAGES.unavailable);
    }
    const id = key(sessionId, server);
    const existing = this.entries.get(id);
    if (existing) {
      const instance = await existing.starting;
      if (!instance.hasExited) {
        instance.lastActivity = Date.now();
        return instance;
      }
      await this.end(id, existing);
    }
    // A server on its way out gives its slot back in a moment: worth waiting for.
    if (this.freeSlots.length === 0 && this.stopping.size > 0) await Promise.race(this.stopping);
    if (this.entries.has(id)) return this.acquire(sessionId, server);
    const slot = this.freeSlots.shift();
    if (slot === undefined) throw new DomainError("language_server_busy", LANGUAGE_SERVER_MESSAGES.busy);
    const entry: Entry = { slot, starting: Promise.reject(new Error("not started")) };
    entry.starting.catch(() => {});
    entry.starting = this.start(sessionId, record, binary, entry);
    this.entries.set(id, entry);
    try {
      entry.instance = await entry.starting;
    } catch (error) {
      if (this.entries.get(id) === entry) this.entries.delete(id);
      this.freeSlots.push(slot);
      this.deps.logger.warn({ err: error, server, sessionId }, "language server did not start");
      throw new DomainError("service_unavailable", LANGUAGE_SERVER_MESSAGES.failed);
    }
    const instance = entry.instance;
    this.scheduleIdle(id, entry, instance);
    // A crash frees the slot at once; the session's next request starts a new server.
    void instance.client.closed.then(() => {
      if (this.entries.get(id) !== entry) return;
      this.deps.logger.warn(
        { server, sessionId, stderr: instance.client.lastErrors },
        "language server exited",
      );
      void this.end(id, entry);
    });
    return instance;
  }

  /** Stops every server (the node is stopping). */
  async close(): Promise<void> {
    this.isClosed = true;
    await Promise.all([...this.entries].map(([id, entry]) => this.end(id, entry)));
  }

  private async start(sessionId: string, record: LanguageServerRecord, binary: string, entry: Entry) {
    const slot = entry.slot;
    const cgroup = await this.deps.cgroups?.prepare(slot);
    try {
      return await ServerInstance.start(
        sessionId,
        record,
        { uid: this.deps.uids[slot], cgroup, memoryBytes: this.deps.memoryBytes, nice: this.deps.nice },
        {
          spawn: this.deps.spawn,
          tools: this.deps.tools,
          binary,
          workspace: this.deps.workspace,
          onDiagnostics: (files) => this.deps.onDiagnostics(sessionId, record.id, files),
        },
      );
    } catch (error) {
      await cgroup?.release();
      throw error;
    } finally {
      entry.cgroup = cgroup;
    }
  }

  private scheduleIdle(id: string, entry: Entry, instance: ServerInstance) {
    const left = instance.lastActivity + this.deps.idleMs - Date.now();
    entry.idleTimer = setTimeout(
      () => {
        if (this.entries.get(id) !== entry) return;
        if (Date.now() - instance.lastActivity >= this.deps.idleMs) {
          this.deps.logger.info(
            { server: instance.record.id, sessionId: instance.sessionId },
            "language server idle: stopped",
          );
          void this.end(id, entry);
        } else this.scheduleIdle(id, entry, instance);
      },
      Math.max(left, 10),
    );
    entry.idleTimer.unref();
  }

  /** Stops an entry's server and frees its slot and cgroup. */
  private async end(id: string, entry: Entry): Promise<void> {
    if (this.entries.get(id) !== entry) return;
    this.entries.delete(id);
    clearTimeout(entry.idleTimer);
    const done = (async () => {
      const instance = await entry.starting.catch(() => undefined);
      try {
        await instance?.stop();
      } finally {
        // The group is emptied and freed before the slot takes its next server.
        if (instance) await entry.cgroup?.release().catch(() => {});
        this.freeSlots.push(entry.slot);
      }
    })();
    this.stopping.add(done);
    try {
      await done;
    } finally {
      this.stopping.delete(done);
    }
  }
}

const key = (sessionId: string, server: LanguageServerId) => `${server}:${sessionId}`;
