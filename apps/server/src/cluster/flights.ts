import type { Redis } from "ioredis";
import type { Logger } from "../logger";
import { TokenLock } from "./tokenLock";

/** Lets a key go again. */
export type Release = () => Promise<void>;

/** At most one holder of each key at a time: one run per session, one git operation per repository. */
export interface SingleFlight {
  /** Other processes hold keys too (a cluster): what a key guards may change between holds. */
  readonly isShared: boolean;
  /** Holds `key` and answers how to let it go, or undefined when it is held already. */
  tryHold(key: string): Promise<Release | undefined>;
  /** Waits (polling every `pollMs`) until `key` is free, then holds it. */
  hold(key: string, pollMs?: number): Promise<Release>;
}

/** Held keys of this process only: enough for one node, and the first check on every node. */
export function memoryFlight(): SingleFlight {
  const held = new Set<string>();
  const flight: SingleFlight = {
    isShared: false,
    async tryHold(key) {
      if (held.has(key)) return undefined;
      held.add(key);
      return async () => {
        held.delete(key);
      };
    },
    hold: (key, pollMs) => holdByPolling(flight, key, pollMs),
  };
  return flight;
}

/** How long a node that died holding a key keeps it: a key is renewed every third of this. */
const TTL_MS = 15_000;
const KEY_PREFIX = "ensemble:flight:";

/**
 * Keys held across every node through Redis (a token lock renewed while held, so a holder
 * that dies frees its keys within 15 s). This process's own hold is taken first, so a node
 * never asks Redis about a key it holds itself; while Redis is away, each node holds its
 * keys alone rather than refusing every run and git operation.
 */
export function redisFlight(redis: Redis, logger: Logger): SingleFlight {
  const local = memoryFlight();
  const lock = new TokenLock(redis);
  const flight: SingleFlight = {
    isShared: true,
    async tryHold(key) {
      const releaseLocal = await local.tryHold(key);
      if (!releaseLocal) return undefined;
      const redisKey = `${KEY_PREFIX}${key}`;
      const token = TokenLock.token();
      try {
        if (!(await lock.acquire(redisKey, token, TTL_MS))) {
          await releaseLocal();
          return undefined;
        }
      } catch (error) {
        logger.warn({ err: error, key }, "single flight: Redis unreachable, holding on this node only");
        return releaseLocal;
      }
      const renewal = setInterval(() => {
        lock.renew(redisKey, token, TTL_MS).catch(() => {});
      }, TTL_MS / 3);
      renewal.unref();
      return async () => {
        clearInterval(renewal);
        await lock.release(redisKey, token).catch(() => {});
        await releaseLocal();
      };
    },
    hold: (key, pollMs) => holdByPolling(flight, key, pollMs),
  };
  return flight;
}

async function holdByPolling(flight: SingleFlight, key: string, pollMs = 50): Promise<Release> {
  for (;;) {
    const release = await flight.tryHold(key);
    if (release) return release;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
