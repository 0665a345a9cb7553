import * as Y from "yjs";
import type { Logger } from "../../logger";
import type { DocRepo } from "./repo";

export interface DocWriterOptions {
  /** How long updates gather before one write; keeps every update stored within 100 ms. */
  flushDelayMs: number;
  /** Writes after which the log is folded into a new snapshot. */
  compactEvery: number;
  retryDelayMs: number;
}

const DEFAULTS: DocWriterOptions = { flushDelayMs: 10, compactEvery: 500, retryDelayMs: 1000 };

/**
 * Persists one session's document. Updates are merged and appended in one row per flush;
 * every write runs on one promise chain, so a compaction never races an append and the
 * snapshot it writes contains every update it deletes.
 */
export class DocWriter {
  private pending: Uint8Array[] = [];
  private chain: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private writesSinceCompaction = 0;
  private readonly options: DocWriterOptions;

  constructor(
    private readonly sessionId: string,
    private readonly doc: Y.Doc,
    private readonly repo: DocRepo,
    private readonly logger: Logger,
    options: Partial<DocWriterOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  push(update: Uint8Array): void {
    this.pending.push(update);
    this.timer ??= setTimeout(() => void this.flush(), this.options.flushDelayMs);
  }

  /** Writes what is pending; resolves when every write queued so far is done. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      const merged = batch.length === 1 ? (batch[0] as Uint8Array) : Y.mergeUpdates(batch);
      this.enqueue(async () => {
        try {
          await this.repo.append(this.sessionId, merged);
        } catch (error) {
          // Put the batch back in front and try again later; clients also hold these edits.
          this.logger.error({ err: error, sessionId: this.sessionId }, "storing document update failed");
          this.pending.unshift(merged);
          this.timer ??= setTimeout(() => void this.flush(), this.options.retryDelayMs);
          return;
        }
        this.writesSinceCompaction += 1;
        if (this.writesSinceCompaction >= this.options.compactEvery) await this.compactNow();
      });
    }
    return this.chain;
  }

  /** Folds the log into a snapshot of the whole document. */
  compact(): Promise<void> {
    void this.flush();
    this.enqueue(() => this.compactNow());
    return this.chain;
  }

  private async compactNow() {
    try {
      await this.repo.compact(this.sessionId, Y.encodeStateAsUpdate(this.doc));
      this.writesSinceCompaction = 0;
    } catch (error) {
      this.logger.error({ err: error, sessionId: this.sessionId }, "compacting document failed");
    }
  }

  private enqueue(task: () => Promise<void>) {
    this.chain = this.chain.then(task);
  }
}
