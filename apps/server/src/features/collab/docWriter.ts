import * as Y from "yjs";
import type { Logger } from "../../logger";
import type { DocRepo } from "./repo";
import type { UpdateLog } from "./updateLog";

/** Stored updates after which a session's log is folded into a new snapshot. */
const COMPACT_EVERY = 500;

/**
 * Persists one session's document: each update goes to the shared update log, and the log
 * is folded into a snapshot every `compactEvery` updates and when the document unloads.
 */
export class DocWriter {
  private readonly inFlight = new Set<Promise<void>>();
  private sinceCompaction = 0;
  private compaction: Promise<void> = Promise.resolve();

  constructor(
    private readonly sessionId: string,
    private readonly doc: Y.Doc,
    private readonly repo: DocRepo,
    private readonly log: UpdateLog,
    private readonly logger: Logger,
    private readonly compactEvery = COMPACT_EVERY,
  ) {}

  /** Logs an update; resolves when it is stored. */
  push(update: Uint8Array): Promise<void> {
    const stored = this.log.append(this.sessionId, update).finally(() => this.inFlight.delete(stored));
    this.inFlight.add(stored);
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
      try {
        await this.repo.compact(this.sessionId, () => Y.encodeStateAsUpdate(this.doc));
      } catch (error) {
        this.logger.error({ err: error, sessionId: this.sessionId }, "compacting document failed");
      }
    });
    return this.compaction;
  }
}
