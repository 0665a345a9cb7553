import type { Logger } from "../../logger";
import type { DocRepo } from "./repo";

interface Pending {
  sessionId: string;
  update: Uint8Array;
  done: () => void;
}

/**
 * Stores document updates of every session in one INSERT per tick of `delayMs`, so the
 * cost of the store grows with time, not with keystrokes (the embedded database runs on
 * our own event loop). A failed write is retried until it succeeds; its promises wait.
 */
export class UpdateLog {
  private batch: Pending[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly repo: DocRepo,
    private readonly logger: Logger,
    private readonly delayMs = 20,
    private readonly retryDelayMs = 1000,
  ) {}

  /** Resolves once the update is stored. */
  append(sessionId: string, update: Uint8Array): Promise<void> {
    return new Promise((done) => {
      this.batch.push({ sessionId, update, done });
      this.timer ??= setTimeout(() => void this.flush(), this.delayMs);
    });
  }

  private async flush(): Promise<void> {
    this.timer = undefined;
    const batch = this.batch;
    this.batch = [];
    try {
      await this.repo.appendMany(batch);
      for (const item of batch) item.done();
    } catch (error) {
      this.logger.error({ err: error, updates: batch.length }, "storing document updates failed; retrying");
      this.batch = [...batch, ...this.batch];
      this.timer ??= setTimeout(() => void this.flush(), this.retryDelayMs);
    }
  }
}
