import { createShardedAdapter } from "@socket.io/redis-adapter";
import type { z } from "zod";
import type { Logger } from "../logger";
import { memoryFlight, redisFlight, type SingleFlight } from "./flights";
import { type LeaseObserver, redisOwnership, type SessionOwnership, soleOwnership } from "./leases";
import { closeRedis, connectRedis, redisReady } from "./redis";
import { type SharedTable, sharedTable } from "./sharedTable";

export { assertClusterConfig, isClusterMode } from "./config";
export type { Release, SingleFlight } from "./flights";
export type { LeaseMove, LeaseObserver, SessionOwnership } from "./leases";
export type { SharedTable } from "./sharedTable";

/** Makes a table every node shares (Redis), or this process's own: see sharedTable.ts. */
export type TableMaker = <T extends { seenAt: number }>(
  name: string,
  schema: z.ZodType<T>,
  staleMs: number,
) => SharedTable<T>;

/** What the cluster shares (nothing, for one process): see docs/operations.md. */
export interface Cluster {
  nodeId: string;
  isCluster: boolean;
  /** socket.io's adapter for events that cross nodes (undefined: the in-memory default). */
  adapter: ReturnType<typeof createShardedAdapter> | undefined;
  /** One run per session, one git operation per repository, across every node. */
  flights: SingleFlight;
  /** Which sessions this node owns. */
  ownership: SessionOwnership;
  /** Per-session tables every node reads (a lobby, a call). */
  table: TableMaker;
  /** Resolves once Redis answers (at once for one process). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The shared parts of a node: with `REDIS_URL`, the socket.io Redis adapter (its own publish
 * and subscribe connections, as it requires), single-flight keys and session leases in
 * Redis; without it, their in-process equivalents.
 */
export function createCluster(
  config: { REDIS_URL?: string | undefined; NODE_ID: string; SESSION_HANDOVER_MAX?: number | undefined },
  logger: Logger,
  leases?: LeaseObserver,
): Cluster {
  const { REDIS_URL: url, NODE_ID: nodeId } = config;
  if (!url) {
    return {
      nodeId,
      isCluster: false,
      adapter: undefined,
      flights: memoryFlight(),
      ownership: soleOwnership(),
      table: (name, schema, staleMs) => sharedTable(undefined, name, schema, staleMs),
      ready: async () => {},
      close: async () => {},
    };
  }
  const state = connectRedis(url, logger, "cluster state");
  const pub = connectRedis(url, logger, "socket.io adapter", true);
  const sub = pub.duplicate();
  // Subscribed to the lease announcements: a connection in subscriber mode serves nothing else.
  const leaseEvents = connectRedis(url, logger, "session handover", true);
  const ownership = redisOwnership(state, leaseEvents, nodeId, logger, config.SESSION_HANDOVER_MAX, leases);
  return {
    nodeId,
    isCluster: true,
    // Sharded pub/sub (Redis 7): a node subscribes to a room's channel only while it has a
    // socket there, so a session's events reach its own node, not every node (bench/cluster:
    // adapters.ts; docs/operations.md).
    adapter: createShardedAdapter(pub, sub, { channelPrefix: "ensemble:io", subscriptionMode: "dynamic" }),
    flights: redisFlight(state, logger),
    ownership,
    table: (name, schema, staleMs) => sharedTable(state, name, schema, staleMs),
    ready: async () => {
      await Promise.all([state, pub, sub, leaseEvents].map(redisReady));
    },
    async close() {
      await ownership.close();
      await Promise.all([state, pub, sub, leaseEvents].map(closeRedis));
    },
  };
}
