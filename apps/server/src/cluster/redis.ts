import { Redis } from "ioredis";
import type { Logger } from "../logger";

/**
 * A Redis connection that logs one warning per outage (`purpose` names it). By default it
 * fails fast while Redis is away (no offline queue): callers choose what to do then (count in
 * memory, serve without a lease, hold a key on this node only). The socket.io adapter's
 * connections queue instead (`isQueued`): it subscribes as it is built, before the connection is up.
 */
export function connectRedis(url: string, logger: Logger, purpose: string, isQueued = false): Redis {
  const redis = new Redis(url, isQueued ? {} : { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  let isReported = false;
  redis.on("error", (error) => {
    if (!isReported) logger.warn({ err: error, purpose }, "Redis unreachable");
    isReported = true;
  });
  redis.on("ready", () => {
    isReported = false;
  });
  return redis;
}

/** Resolves once `redis` answers; rejects if it ends first. */
export async function redisReady(redis: Redis): Promise<void> {
  if (redis.status === "ready") return;
  await new Promise<void>((resolve, reject) => {
    redis.once("ready", resolve);
    redis.once("end", () => reject(new Error("Redis connection ended")));
  });
}

/** Closes politely, or drops the connection when Redis is away. */
export async function closeRedis(redis: Redis): Promise<void> {
  await redis.quit().catch(() => redis.disconnect());
}
