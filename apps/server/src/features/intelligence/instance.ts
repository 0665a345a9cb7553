import { type FileDiagnostics, type LspDiagnostic, LspDiagnosticSchema } from "@ensemble/protocol";
import type { PublishDiagnosticsParams } from "vscode-languageserver-protocol/node";
import type { WorkspaceAccess, WorkspaceWatch } from "../collab/index";
import type { Spawn } from "../execution/index";
import { LanguageServerClient } from "./client";
import { DocumentFeed, pathOfUri } from "./documents";
import { HostFolder } from "./folder";
import { launchServer, SERVER_ROOT, type ServerSlot, type ServerTools } from "./sandbox";
import type { LanguageServerRecord } from "./servers";

/** How long edits gather before they are fed to the server (diagnostics follow typing at this pace). */
const FEED_DEBOUNCE_MS = 150;

const SEVERITIES = ["error", "error", "warning", "info", "hint"] as const;

/** What an instance needs from its pool. */
export interface InstanceDeps {
  spawn: Spawn;
  tools: ServerTools;
  binary: string;
  workspace: WorkspaceAccess;
  /** The server reported on some files (each list replaces that file's last). */
  onDiagnostics(files: FileDiagnostics[]): void;
}

/**
 * One session's running server: its sandboxed process, the LSP client, the feed of the
 * session's files, and what it last reported. It feeds itself from the shared document while
 * it runs (debounced), and once more before each request.
 */
export class ServerInstance {
  private readonly diagnostics = new Map<string, LspDiagnostic[]>();
  private watch: WorkspaceWatch | undefined;
  private feedTimer: NodeJS.Timeout | undefined;
  private isStopped = false;
  /** When someone last asked something or changed the session's files (the idle clock). */
  lastActivity = Date.now();
  /** Listeners waiting for the next change of the session's document. */
  private readonly changeWaiters = new Set<() => void>();
  /**
   * How many times the session's document changed since it was followed: a request compares it
   * before and after feeding, so a change that came while it fed is never waited for in vain.
   */
  private changeCount = 0;

  /** How many times the session's document changed since it was followed (read-only outside). */
  get changes(): number {
    return this.changeCount;
  }

  private constructor(
    readonly sessionId: string,
    readonly record: LanguageServerRecord,
    readonly client: LanguageServerClient,
    readonly feed: DocumentFeed,
    private readonly folder: HostFolder,
    private readonly deps: InstanceDeps,
  ) {}

  /** Launches the server for the session in `slot` and feeds it the session's files. */
  static async start(
    sessionId: string,
    record: LanguageServerRecord,
    slot: ServerSlot,
    deps: InstanceDeps,
  ): Promise<ServerInstance> {
    const folder = await HostFolder.create(slot.uid);
    let client: LanguageServerClient | undefined;
    try {
      const feed = new DocumentFeed(record, folder, (method, params) => client?.notify(method, params));
      await feed.writeConfig();
      const child = await launchServer(deps.spawn, deps.tools, record, deps.binary, folder.dir, slot);
      client = await LanguageServerClient.start(child, record, `file://${SERVER_ROOT}`);
      const instance = new ServerInstance(sessionId, record, client, feed, folder, deps);
      client.onDiagnostics((params) => instance.received(params));
      instance.follow();
      await instance.sync();
      return instance;
    } catch (error) {
      client?.kill();
      await folder.destroy();
      throw error;
    }
  }

  get hasExited(): boolean {
    return this.client.hasExited;
  }

  /** Every file's last report, for someone who arrives after it was broadcast. */
  reported(): FileDiagnostics[] {
    return [...this.diagnostics].map(([path, diagnostics]) => ({ path, diagnostics }));
  }

  /** Feeds the server the session's files now (`ask`: a file someone asks about is opened). */
  async sync(ask?: string): Promise<boolean> {
    this.follow();
    const files = this.deps.workspace.files(this.sessionId);
    if (!files) return false;
    await this.feed.sync(files, ask);
    return true;
  }

  /** Resolves at the session document's next change, or after `ms`. */
  nextChange(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.changeWaiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.changeWaiters.add(done);
    });
  }

  /** Stops the server and forgets its folder; its reports are cleared for everyone. */
  async stop(): Promise<void> {
    if (this.isStopped) return;
    this.isStopped = true;
    clearTimeout(this.feedTimer);
    this.watch?.stop();
    for (const waiter of [...this.changeWaiters]) waiter();
    this.client.kill();
    await this.client.closed;
    await this.folder.destroy();
    const cleared = [...this.diagnostics.keys()].map((path) => ({ path, diagnostics: [] }));
    this.diagnostics.clear();
    if (cleared.length > 0) this.deps.onDiagnostics(cleared);
  }

  /** Watches the session's document (again, after it was unloaded and loaded anew). */
  private follow() {
    if (this.isStopped || this.watch?.isLive) return;
    this.watch?.stop();
    this.watch = this.deps.workspace.watch(this.sessionId, () => {
      this.lastActivity = Date.now();
      this.changeCount += 1;
      for (const waiter of [...this.changeWaiters]) waiter();
      this.feedTimer ??= setTimeout(() => {
        this.feedTimer = undefined;
        this.sync().catch(() => {});
      }, FEED_DEBOUNCE_MS);
    });
  }

  private received(params: PublishDiagnosticsParams) {
    const path = pathOfUri(params.uri);
    if (path === undefined || this.isStopped) return;
    // A report on a version the server no longer holds is about text nobody sees any more.
    const state = this.feed.state(path);
    if (!state || (params.version !== undefined && params.version !== state.version)) return;
    // The server is a sandboxed program: what it reports is checked like any outside data.
    const diagnostics: LspDiagnostic[] = [];
    for (const d of Array.isArray(params.diagnostics) ? params.diagnostics.slice(0, 200) : []) {
      const message = typeof d?.message === "string" ? d.message : d?.message?.value;
      const parsed = LspDiagnosticSchema.safeParse({
        range: d?.range && { start: d.range.start, end: d.range.end },
        severity: SEVERITIES[d?.severity ?? 1] ?? "error",
        message: typeof message === "string" ? message.slice(0, 2000) : undefined,
        ...(d?.code !== undefined ? { code: String(d.code).slice(0, 100) } : {}),
      });
      if (parsed.success) diagnostics.push(parsed.data);
    }
    this.diagnostics.set(path, diagnostics);
    this.deps.onDiagnostics([{ path, diagnostics }]);
  }
}
