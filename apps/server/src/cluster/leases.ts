import type { Redis } from "ioredis";
import type { Logger } from "../logger";
import { TokenLock } from "./tokenLock";

/**
 * Which node owns each live session (DESIGN decision 16). The balancer routes a session's
 * sockets to one node; the lease records it, so a node that also serves the session (a stale
 * route, a handover) knows it is not the owner. Storage is safe with two writers either way:
 * the lease informs, it does not gate a write.
 */
export interface SessionOwnership {
  /** Claims the session for this node (a room was loaded); never throws. */
  claim(sessionId: string): Promise<void>;
  /** Lets the session go (its room unloaded); never throws. */
  release(sessionId: string): Promise<void>;
  /** Whether this node holds the session's lease now. */
  owns(sessionId: string): boolean;
  /** How many sessions this node holds the lease of. */
  readonly ownedCount: number;
  close(): Promise<void>;
}

/** One process owns every session it serves. */
export function soleOwnership(): SessionOwnership {
  const held = new Set<string>();
  return {
    async claim(sessionId) {
      held.add(sessionId);
    },
    async release(sessionId) {
      held.delete(sessionId);
    },
    owns: (sessionId) => held.has(sessionId),
    get ownedCount() {
      return held.size;
    },
    async close() {},
  };
}

/** A dead owner's lease runs out within this; a live one renews it every third of it. */
export const LEASE_TTL_MS = 6_000;
const KEY_PREFIX = "ensemble:lease:";

/** The Redis key of a session's lease (its value: `{nodeId} {token}`). */
export const leaseKey = (sessionId: string) => `${KEY_PREFIX}${sessionId}`;

/**
 * Leases in Redis, one key per session, renewed every 2 s. A node that loads a session
 * another node still leases (that node died and its lease has not run out, or it is still
 * finishing a handover) serves it anyway and takes the lease as soon as it is free; a node
 * whose lease was taken over (it stalled past the TTL) stops calling itself the owner.
 */
export function redisOwnership(redis: Redis, nodeId: string, logger: Logger): SessionOwnership {
  const lock = new TokenLock(redis);
  /** Every session this node serves, with its token and whether it holds the lease now. */
  const served = new Map<string, { token: string; isOwner: boolean }>();
  const tryTake = async (sessionId: string, entry: { token: string; isOwner: boolean }) => {
    try {
      const key = leaseKey(sessionId);
      entry.isOwner = entry.isOwner
        ? await lock.renew(key, entry.token, LEASE_TTL_MS)
        : await lock.acquire(key, entry.token, LEASE_TTL_MS);
    } catch {
      // Redis is away: keep what we believed; the lease runs out by itself if we never renew.
    }
  };
  const timer = setInterval(() => {
    for (const [sessionId, entry] of served) {
      const wasOwner = entry.isOwner;
      void tryTake(sessionId, entry).then(() => {
        if (wasOwner && !entry.isOwner)
          logger.warn({ sessionId }, "session lease taken over by another node");
      });
    }
  }, LEASE_TTL_MS / 3);
  timer.unref();
  return {
    async claim(sessionId) {
      if (served.has(sessionId)) return;
      const entry = { token: `${nodeId} ${TokenLock.token()}`, isOwner: false };
      served.set(sessionId, entry);
      await tryTake(sessionId, entry);
      if (!entry.isOwner) logger.info({ sessionId }, "serving a session another node still leases");
    },
    async release(sessionId) {
      const entry = served.get(sessionId);
      if (!entry) return;
      served.delete(sessionId);
      await lock.release(leaseKey(sessionId), entry.token).catch(() => {});
    },
    owns: (sessionId) => served.get(sessionId)?.isOwner === true,
    get ownedCount() {
      let count = 0;
      for (const entry of served.values()) if (entry.isOwner) count += 1;
      return count;
    },
    async close() {
      clearInterval(timer);
      await Promise.all([...served.keys()].map((sessionId) => this.release(sessionId)));
    },
  };
}
