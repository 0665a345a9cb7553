import type { Logger } from "../../logger";
import type { DocRepo } from "./repo";
import type { MarkedSnapshot } from "./syncState";
import type { UpdateLog } from "./updateLog";

/** When a session's log is folded into a new snapshot. */
export interface CompactionPolicy {
  /** After this many stored updates. */
  every: number;
  /**
   * After this many bytes of updates, or half the last snapshot's size if that is more: text
   * typed and deleted again then leaves the log and what joiners are sent, and the work of
   * folding stays in proportion to what was sent.
   */
  everyBytes: number;
  /**
   * After this long without an update (ms), if anything is left to fold: a session that
   * stays loaded then reloads, after a crash, from a snapshot and a short tail.
   */
  idleMs: number;
}

/**
 * 500 updates (a minute of typing); 10 s of quiet: a pause in the typing, not between keys.
 * Folding a 1 MB document costs 25-70 ms of encoding, so not at every pause of a second.
 */
export const COMPACTION: CompactionPolicy = { every: 500, everyBytes: 1024 * 1024, idleMs: 10_000 };

/** The document a writer folds: a snapshot of it, and news that the snapshot was stored. */
export interface Compactable {
  /** Takes in updates another writer stored (two nodes wrote the session for a moment). */
  absorb(updates: readonly Uint8Array[]): void;
  snapshot(): MarkedSnapshot;
  snapshotStored(snapshot: MarkedSnapshot): void;
  /** Lets the live document go if the stored snapshot holds all of it (after the idle compaction). */
  rest(): void;
}

/**
 * Persists one session's document: each update goes to the shared update log, and the log
 * is folded into a snapshot every `policy.every` updates, after `policy.idleMs` without one,
 * and when the document unloads, unless there is nothing to fold. After the idle one (only:
 * not during typing) the document is told to rest.
 */
export class DocWriter {
  private readonly inFlight = new Set<Promise<void>>();
  private sinceCompaction = 0;
  private bytesSinceCompaction = 0;
  /** The size of the last snapshot stored. */
  private foldedBytes = 0;
  private compaction: Promise<void> = Promise.resolve();
  /** Updates pushed since the document loaded, and how many of them a stored snapshot holds. */
  private pushed = 0;
  private folded = 0;
  private lastPushAt = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private isClosed = false;

  constructor(
    private readonly sessionId: string,
    private readonly document: Compactable,
    private readonly repo: DocRepo,
    private readonly log: UpdateLog,
    private readonly logger: Logger,
    private readonly policy: CompactionPolicy = COMPACTION,
    /** The stored state is not one current snapshot (a tail, an old format, nothing). */
    private isStale = false,
    /** The generation of the snapshot loaded (null: none): one stored since is another writer's. */
    private generation: number | null = null,
  ) {
    if (isStale) this.armIdle(policy.idleMs);
  }

  /** Logs an update (with its author, for the history); resolves when it is stored. */
  push(update: Uint8Array, author?: string): Promise<void> {
    const stored = this.log.append(this.sessionId, update, author);
    // The updates of one tick share a promise: track it once.
    if (!this.inFlight.has(stored)) {
      this.inFlight.add(stored);
      void stored.then(() => this.inFlight.delete(stored));
    }
    this.pushed += 1;
    this.lastPushAt = Date.now();
    this.sinceCompaction += 1;
    this.bytesSinceCompaction += update.byteLength;
    const byteBound = Math.max(this.policy.everyBytes, this.foldedBytes / 2);
    if (this.sinceCompaction >= this.policy.every || this.bytesSinceCompaction >= byteBound)
      void this.compact();
    else this.armIdle(this.policy.idleMs);
    return stored;
  }

  /** Resolves when every update pushed so far is stored. */
  async flush(): Promise<void> {
    await Promise.all(this.inFlight);
  }

  /** Resolves when every update pushed so far is stored and the compactions begun are done. */
  async settled(): Promise<void> {
    await this.flush();
    await this.compaction;
  }

  /** Stores what is pending, then folds the log into a snapshot of the whole document. */
  compact(): Promise<void> {
    this.sinceCompaction = 0;
    this.bytesSinceCompaction = 0;
    this.compaction = this.compaction.then(async () => {
      await this.flush();
      // Every update pushed so far is stored, so the rows the compaction drops include them;
      // one pushed from here on may outlive it in the log and is folded next time.
      const pushed = this.pushed;
      if (!this.isStale && pushed === this.folded) return;
      let taken: MarkedSnapshot | undefined;
      try {
        this.generation = await this.repo.compact(
          this.sessionId,
          (foreign) => {
            this.document.absorb(foreign);
            taken = this.document.snapshot();
            return taken;
          },
          this.generation,
        );
      } catch (error) {
        this.logger.error({ err: error, sessionId: this.sessionId }, "compacting document failed");
        this.armIdle(this.policy.idleMs);
        return;
      }
      this.folded = pushed;
      this.isStale = false;
      if (taken) {
        this.foldedBytes = taken.state.byteLength;
        this.document.snapshotStored(taken);
      }
    });
    return this.compaction;
  }

  /**
   * The document was built, by an edit or by a read (a run, git, a language server's feed):
   * after the next quiet spell it is folded if need be and rests again, even if no edit came.
   */
  documentBuilt(): void {
    this.armIdle(this.policy.idleMs);
  }

  /** Stops the idle compaction (the document unloads; `compact` first). */
  close(): void {
    this.isClosed = true;
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  /** One timer per quiet spell, not one per update: it re-arms itself until the quiet is long enough. */
  private armIdle(delayMs: number) {
    if (this.idleTimer || this.isClosed) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      const quietMs = Date.now() - this.lastPushAt;
      if (quietMs < this.policy.idleMs) this.armIdle(this.policy.idleMs - quietMs);
      else void this.compact().then(() => this.restIfQuiet());
    }, delayMs);
    this.idleTimer.unref();
  }

  /**
   * Rests the document after the idle compaction (or finding nothing to fold) if it is still
   * quiet: an update pushed while the compaction awaited the database is not in the snapshot.
   */
  private restIfQuiet() {
    if (this.isClosed || this.isStale || this.pushed !== this.folded) return;
    this.document.rest();
  }
}
