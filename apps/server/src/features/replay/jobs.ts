import type { Logger } from "../../logger";
import { compactSession, FOLD_LIMIT, HISTORY_LAYOUT, type HistoryLayout, type Pace } from "./history";
import type { PackChunk } from "./packer";
import type { ReplayRepo } from "./repo";

/** Rows younger than this stay single rows for now: the live tail, still being written. */
const SETTLE_MS = 10_000;
/** After each step the compaction rests this many times as long as the step took... */
const REST_RATIO = 2;
/** ...but never longer than this (ms). */
const REST_MAX_MS = 50;
/** How often ended sessions' history is checked against the retention. */
const RETENTION_EVERY_MS = 60 * 60_000;

export interface HistoryJobsOptions {
  /** Seconds between compactions; 0: none (the jobs still run when called; the retention's still runs). */
  compactSeconds: number;
  /** Days an ended session keeps its history; undefined: forever. */
  retentionDays: number | undefined;
  layout?: HistoryLayout;
  /** Packs the chunks (packer.ts's worker in the server); here and now when unset. */
  pack?: PackChunk | undefined;
}

/**
 * A pace that rests after each step `ratio` times as long as the step took (at most `maxRestMs`):
 * a compaction pass then takes about a third of the event loop and of the database, spread
 * over its interval, instead of both cores at once for a few hundred ms, which typists' edits
 * waited behind: at 25 typing sessions edit p99 went from 4.2-4.9 ms to 3.8-4.0 (bench/collab,
 * issue 32).
 */
export function restingPace(ratio = REST_RATIO, maxRestMs = REST_MAX_MS): Pace {
  let since = performance.now();
  return async () => {
    const restMs = Math.min((performance.now() - since) * ratio, maxRestMs);
    await new Promise((resolve) => setTimeout(resolve, restMs));
    since = performance.now();
  };
}

/**
 * The history's periodic jobs: folding settled rows into chunks and keyframes, and deleting
 * the history of sessions that ended more than the retention ago. Safe on every node of a
 * cluster at once (two nodes folding the same rows store one chunk; deletes are idempotent).
 */
export function createHistoryJobs(repo: ReplayRepo, logger: Logger, options: HistoryJobsOptions) {
  let lastRetention = 0;
  let running: Promise<void> | undefined;

  const jobs = {
    /** Folds every session's rows stored before `settledBefore`; answers the rows folded. */
    async compact(settledBefore = new Date(Date.now() - SETTLE_MS)): Promise<number> {
      let folded = 0;
      const pace = restingPace();
      for (const sessionId of await repo.unsettled(settledBefore)) {
        try {
          // A long backlog (a server upgraded from a row per update) goes in several passes.
          for (;;) {
            const now = await compactSession(repo, sessionId, settledBefore, {
              layout: options.layout ?? HISTORY_LAYOUT,
              pace,
              pack: options.pack,
            });
            folded += now;
            if (now < FOLD_LIMIT) break;
          }
        } catch (error) {
          logger.warn({ err: error, sessionId }, "history compaction failed; the rows stay as they are");
        }
        await pace();
      }
      return folded;
    },

    /** Deletes the history of sessions ended more than the retention before `now`; answers how many. */
    async forgetEnded(now = new Date()): Promise<number> {
      if (options.retentionDays === undefined) return 0;
      const sessions = await repo.forgetEnded(new Date(now.getTime() - options.retentionDays * 86_400_000));
      if (sessions > 0) logger.info({ sessions }, "deleted the history of sessions ended past the retention");
      return sessions;
    },
  };

  const tick = async () => {
    if (options.compactSeconds > 0) await jobs.compact();
    if (Date.now() - lastRetention >= RETENTION_EVERY_MS) {
      lastRetention = Date.now();
      await jobs.forgetEnded();
    }
  };
  // The retention alone is checked every minute (its own hourly pace inside).
  const everyMs = options.compactSeconds > 0 ? options.compactSeconds * 1000 : 60_000;
  const isIdle = options.compactSeconds === 0 && options.retentionDays === undefined;
  const timer = !isIdle
    ? setInterval(() => {
        // One pass at a time: a long backlog is not folded twice by this node.
        running ??= tick()
          .catch((error: unknown) => logger.warn({ err: error }, "history job failed"))
          .finally(() => {
            running = undefined;
          });
      }, everyMs)
    : undefined;
  timer?.unref();

  return {
    ...jobs,
    /** Stops the timer and waits for a pass under way. */
    async close(): Promise<void> {
      clearInterval(timer);
      await running;
    },
  };
}

export type HistoryJobs = ReturnType<typeof createHistoryJobs>;
