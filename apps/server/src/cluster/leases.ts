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
  /**
   * Adds what this node does when it must hand a session over (it holds the lease and another
   * node serves the session too): end the session's connections here, so they come back
   * through the balancer to the node it routes to now, then unload (which calls `release`).
   * Every listener added runs, in the order they were added.
   */
  onHandover(handover: (sessionId: string) => void): void;
  close(): Promise<void>;
}

/**
 * A lease that moved (metrics): this node handed a session over (`handed_over`), took the
 * lease of a session another node held (`taken`), or found its own taken by another (`lost`).
 */
export type LeaseMove = "handed_over" | "taken" | "lost";

/** What the leases report as they move. */
export interface LeaseObserver {
  leaseMoved(move: LeaseMove): void;
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
    onHandover() {},
    async close() {},
  };
}

/** A dead owner's lease runs out within this; a live one renews it every third of it. */
export const LEASE_TTL_MS = 6_000;
/** How often a node serving a session without its lease tries to take it and says so. */
export const CONTEST_INTERVAL_MS = 500;
/** How long another node must go on serving an owned session before the owner hands it over. */
export const HANDOVER_AFTER_MS = 1_000;
/** How long a handover may take to unload the session before the owner may try again. */
const HANDOVER_RETRY_MS = 10_000;
/** The window `maxHandovers` counts in. */
export const HANDOVER_WINDOW_MS = 60_000;
const KEY_PREFIX = "ensemble:lease:";
/** Where a node serving a session it does not own says so: `{sessionId} {nodeId}`. */
const CONTEST_CHANNEL = "ensemble:lease-contest";
// Counts a session's handovers in a window that starts with the first.
const COUNT = `local n = redis.call("incr", KEYS[1]) if n == 1 then redis.call("pexpire", KEYS[1], ARGV[1]) end return n`;

/** The Redis key of a session's lease (its value: `{nodeId} {token}`). */
export const leaseKey = (sessionId: string) => `${KEY_PREFIX}${sessionId}`;
/** The Redis key counting a session's handovers in the current window. */
export const handoverKey = (sessionId: string) => `ensemble:handovers:${sessionId}`;

interface Served {
  token: string;
  isOwner: boolean;
  /** Since when another node has said without a pause that it serves this session too. */
  contestedSince?: number | undefined;
  lastContest?: number | undefined;
  isHandingOver: boolean;
  /** The session's handover budget is spent: serve on beside the other node until then. */
  quietUntil: number;
}

/**
 * Leases in Redis, one key per session, renewed every 2 s. A node that loads a session
 * another node still leases (that node died and its lease has not run out, or the balancer's
 * ring changed while the owner's connections stayed) serves it anyway, tries to take the lease
 * every 500 ms and publishes that it serves it. The owner that hears this for a second without
 * a pause hands the session over (`onHandover`): the balancer's newest routing sent the other
 * node its connections, so the owner's clients reconnect through the balancer to join them.
 * At most `maxHandovers` per session in a minute (0: never): a client that reaches two nodes
 * directly, or a flapping ring, cannot bounce a session forever; both nodes then serve it,
 * which storage allows. A node whose lease was taken over (it stalled past the TTL) stops
 * calling itself the owner.
 */
export function redisOwnership(
  redis: Redis,
  subscriber: Redis,
  nodeId: string,
  logger: Logger,
  maxHandovers = 3,
  observer?: LeaseObserver,
): SessionOwnership {
  const lock = new TokenLock(redis);
  /** Every session this node serves, with its token and whether it holds the lease now. */
  const served = new Map<string, Served>();
  const handovers: ((sessionId: string) => void)[] = [];
  const tryTake = async (sessionId: string, entry: Served) => {
    try {
      const key = leaseKey(sessionId);
      entry.isOwner = entry.isOwner
        ? await lock.renew(key, entry.token, LEASE_TTL_MS)
        : await lock.acquire(key, entry.token, LEASE_TTL_MS);
    } catch {
      // Redis is away: keep what we believed; the lease runs out by itself if we never renew.
    }
  };
  const contest = async (sessionId: string, entry: Served, isClaim = false) => {
    await tryTake(sessionId, entry);
    // Taken after serving without it: another node held it (or had not let it go yet).
    if (entry.isOwner && !isClaim) observer?.leaseMoved("taken");
    if (!entry.isOwner && served.get(sessionId) === entry)
      await redis.publish(CONTEST_CHANNEL, `${sessionId} ${nodeId}`).catch(() => {});
  };
  const handOver = async (sessionId: string, entry: Served) => {
    entry.isHandingOver = true;
    try {
      const count = Number(await redis.eval(COUNT, 1, handoverKey(sessionId), String(HANDOVER_WINDOW_MS)));
      if (count > maxHandovers) {
        if (maxHandovers > 0)
          logger.warn({ sessionId, count }, "session handed over too often: two nodes serve it for now");
        entry.quietUntil = Date.now() + HANDOVER_WINDOW_MS;
        entry.isHandingOver = false;
        return;
      }
    } catch {
      entry.isHandingOver = false;
      return;
    }
    logger.info({ sessionId }, "another node serves this session: handing it over");
    observer?.leaseMoved("handed_over");
    for (const handover of handovers) handover(sessionId);
    // Still here later (a client came back to this node before the room could unload): the
    // next contest may try again, within the budget.
    setTimeout(() => {
      entry.isHandingOver = false;
      entry.contestedSince = undefined;
    }, HANDOVER_RETRY_MS).unref();
  };
  const heard = (message: string) => {
    const [sessionId = "", from] = message.split(" ");
    const entry = served.get(sessionId);
    if (from === nodeId || !entry?.isOwner || entry.isHandingOver) return;
    const now = Date.now();
    if (now < entry.quietUntil) return;
    // A pause longer than two announcements: the other node stopped serving it; start again.
    if (entry.lastContest === undefined || now - entry.lastContest > 2 * CONTEST_INTERVAL_MS + 250)
      entry.contestedSince = now;
    entry.lastContest = now;
    if (now - (entry.contestedSince ?? now) >= HANDOVER_AFTER_MS) void handOver(sessionId, entry);
  };
  subscriber.on("message", (channel: string, message: string) => {
    if (channel === CONTEST_CHANNEL) heard(message);
  });
  void subscriber.subscribe(CONTEST_CHANNEL).catch(() => {});
  const renewals = setInterval(() => {
    for (const [sessionId, entry] of served) {
      if (!entry.isOwner) continue;
      void tryTake(sessionId, entry).then(() => {
        if (entry.isOwner) return;
        logger.warn({ sessionId }, "session lease taken over by another node");
        observer?.leaseMoved("lost");
      });
    }
  }, LEASE_TTL_MS / 3);
  const contests = setInterval(() => {
    for (const [sessionId, entry] of served) if (!entry.isOwner) void contest(sessionId, entry);
  }, CONTEST_INTERVAL_MS);
  renewals.unref();
  contests.unref();
  return {
    async claim(sessionId) {
      if (served.has(sessionId)) return;
      const entry: Served = {
        token: `${nodeId} ${TokenLock.token()}`,
        isOwner: false,
        isHandingOver: false,
        quietUntil: 0,
      };
      served.set(sessionId, entry);
      await contest(sessionId, entry, true);
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
    onHandover(listener) {
      handovers.push(listener);
    },
    async close() {
      clearInterval(renewals);
      clearInterval(contests);
      await subscriber.unsubscribe(CONTEST_CHANNEL).catch(() => {});
      await Promise.all([...served.keys()].map((sessionId) => this.release(sessionId)));
    },
  };
}
