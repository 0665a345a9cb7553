import type { Logger } from "../../logger";
import type { DocRepo } from "./repo";
import type { MarkedSnapshot } from "./syncState";
import type { UpdateLog } from "./updateLog";

/** Stored updates after which a session's log is folded into a new snapshot. */
const COMPACT_EVERY = 500;

/** The document a writer folds: a snapshot of it, and news that the snapshot was stored. */
export interface Compactable {
  snapshot(): MarkedSnapshot;
  snapshotStored(snapshot: MarkedSnapshot): void;
}

/**
 * Persists one session's document: each update goes to the shared update log, and the log
 * is folded into a snapshot every `compactEvery` updates and when the document unloads,
 * unless there is nothing to fold.
 */
export class DocWriter {
  private readonly inFlight = new Set<Promise<void>>();
  private sinceCompaction = 0;
  private compaction: Promise<void> = Promise.resolve();
  /** Updates pushed since the document loaded, and how many of them a stored snapshot holds. */
  private pushed = 0;
  private folded = 0;

  constructor(
    private readonly sessionId: string,
    private readonly document: Compactable,
    private readonly repo: DocRepo,
    private readonly log: UpdateLog,
    private readonly logger: Logger,
    private readonly compactEvery = COMPACT_EVERY,
    /** The stored state is not one current snapshot (a tail, an old format, nothing). */
    private isStale = false,
  ) {}

  /** Logs an update; resolves when it is stored. */
  push(update: Uint8Array): Promise<void> {
    const stored = this.log.append(this.sessionId, update).finally(() => this.inFlight.delete(stored));
    this.inFlight.add(stored);
    this.pushed += 1;
    this.sinceCompaction += 1;
    if (this.sinceCompaction >= this.compactEvery) void this.compact();
    return stored;
  }

  /** Resolves when every update pushed so far is stored. */
  async flush(): Promise<void> {
    await Promise.all(this.inFlight);
  }

  /** Stores what is pending, then folds the log into a snapshot of the whole document. */
  compact(): Promise<void> {
    this.sinceCompaction = 0;
    this.compaction = this.compaction.then(async () => {
      await this.flush();
      // Every update pushed so far is stored, so the rows the compaction drops include them;
      // one pushed from here on may outlive it in the log and is folded next time.
      const pushed = this.pushed;
      if (!this.isStale && pushed === this.folded) return;
      let taken: MarkedSnapshot | undefined;
      try {
        await this.repo.compact(this.sessionId, () => {
          taken = this.document.snapshot();
          return taken;
        });
      } catch (error) {
        this.logger.error({ err: error, sessionId: this.sessionId }, "compacting document failed");
        return;
      }
      this.folded = pushed;
      this.isStale = false;
      if (taken) this.document.snapshotStored(taken);
    });
    return this.compaction;
  }
}
