import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from "rate-limiter-flexible";
import { closeRedis, connectRedis, redisReady } from "./cluster/redis";
import type { Logger } from "./logger";

/** One limit: at most `points` per `durationSeconds` for each key. */
export interface LimitSpec {
  /** Keeps this limit's keys apart from every other's (in Redis, a key prefix). */
  name: string;
  points: number;
  durationSeconds: number;
  /** Once over the limit, refuse the key for this long (default: until the window ends). */
  blockSeconds?: number;
}

/**
 * A counter per key. Every method answers in seconds until the key may act again: 0 when it
 * may now.
 */
export interface Limiter {
  /** Counts `points` (default 1) against `key`. */
  take(key: string, points?: number): Promise<number>;
  /** Whether `key` is over the limit now, without counting. */
  retryAfter(key: string): Promise<number>;
  /** How many points `key` has used in its window. */
  used(key: string): Promise<number>;
  reset(key: string): Promise<void>;
  /** Refuses `key` for `seconds` from now, whatever it has used (a delay that grows, say). */
  block(key: string, seconds: number): Promise<void>;
}

export interface Limiters {
  create(spec: LimitSpec): Limiter;
  /** Resolves once the shared store answers (at once without Redis); counts are local until then. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

const KEY_PREFIX = "ensemble:limit:";

/**
 * Every rate limit of the server, through rate-limiter-flexible: in this process's memory by
 * default, in Redis when `redisUrl` is set, so that several nodes count together. While Redis
 * is unreachable, each node counts alone in memory (the library's insurance limiter) rather
 * than refusing everyone or letting everything through.
 */
export function createLimiters(logger: Logger, redisUrl?: string): Limiters {
  // Failing fast while Redis is away lets the insurance limiter answer at once.
  const redis = redisUrl ? connectRedis(redisUrl, logger, "rate limits (counting in memory)") : undefined;
  return {
    create(spec) {
      const options = {
        keyPrefix: `${KEY_PREFIX}${spec.name}`,
        points: spec.points,
        duration: spec.durationSeconds,
        blockDuration: spec.blockSeconds ?? 0,
      };
      const memory = new RateLimiterMemory(options);
      const store = redis
        ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: memory })
        : memory;
      return wrap(store);
    },
    async ready() {
      if (redis) await redisReady(redis);
    },
    async close() {
      if (redis) await closeRedis(redis);
    },
  };
}

function wrap(store: RateLimiterAbstract): Limiter {
  const seconds = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  return {
    async take(key, points = 1) {
      try {
        await store.consume(key, points);
        return 0;
      } catch (refusal) {
        if (refusal instanceof RateLimiterRes) return seconds(refusal);
        throw refusal;
      }
    },
    async retryAfter(key) {
      const res = await store.get(key);
      if (!res || res.remainingPoints > 0) return 0;
      return seconds(res);
    },
    async used(key) {
      const res = await store.get(key);
      return res?.consumedPoints ?? 0;
    },
    async reset(key) {
      await store.delete(key);
    },
    async block(key, seconds) {
      await store.block(key, seconds);
    },
  };
}
