/**
 * The systems the collaboration bench measures: our server and its peers, each in memory (as
 * they run by default) and storing every change (equal work: ours stores every update in
 * PostgreSQL within 100 ms, DESIGN decision 18). The order is the order of RESULTS.md's columns.
 */
export const SYSTEM_IDS = [
  "ours",
  "hocuspocus",
  "hocuspocus-persisted",
  "hocuspocus-persisted-nodebounce",
  "ywebsocket",
  "ywebsocket-persisted",
] as const;

export type SystemId = (typeof SYSTEM_IDS)[number];

/** The client protocol a system speaks: a persisted peer speaks its in-memory server's. */
export type Protocol = "ours" | "hocuspocus" | "ywebsocket";

export interface System {
  protocol: Protocol;
  /** Whether it keeps its documents across a restart. */
  isPersisted: boolean;
  /**
   * Hocuspocus storing: the debounce of its `onStoreDocument` in ms (0: on every change);
   * unset, Hocuspocus's default (2 s after the last change, at most 10 s after the first).
   */
  storeDebounceMs?: number;
  /** The same server storing its documents: the one the cold load restarts (itself when it stores). */
  persisted: SystemId;
  /** Its loopback port in the load run. */
  port: number;
}

export const SYSTEMS: Record<SystemId, System> = {
  ours: { protocol: "ours", isPersisted: true, persisted: "ours", port: 4311 },
  hocuspocus: { protocol: "hocuspocus", isPersisted: false, persisted: "hocuspocus-persisted", port: 4312 },
  "hocuspocus-persisted": {
    protocol: "hocuspocus",
    isPersisted: true,
    persisted: "hocuspocus-persisted",
    port: 4314,
  },
  "hocuspocus-persisted-nodebounce": {
    protocol: "hocuspocus",
    isPersisted: true,
    storeDebounceMs: 0,
    persisted: "hocuspocus-persisted-nodebounce",
    port: 4315,
  },
  ywebsocket: { protocol: "ywebsocket", isPersisted: false, persisted: "ywebsocket-persisted", port: 4313 },
  "ywebsocket-persisted": {
    protocol: "ywebsocket",
    isPersisted: true,
    persisted: "ywebsocket-persisted",
    port: 4316,
  },
};

/** Whether `system` is a peer doing our work: storing every change (DESIGN decision 18). */
export function isEqualWorkPeer(system: SystemId): boolean {
  return system !== "ours" && SYSTEMS[system].isPersisted;
}

/** What a full run measures when `BENCH_SYSTEMS` is unset: ours and every peer. */
export const DEFAULT_SYSTEMS: readonly SystemId[] = SYSTEM_IDS;

function isSystemId(name: string): name is SystemId {
  return (SYSTEM_IDS as readonly string[]).includes(name);
}

/** The systems a comma-separated list names (empty: none); throws on a name it does not know. */
export function parseSystems(list: string): SystemId[] {
  const names = list
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !isSystemId(name));
  if (unknown.length > 0)
    throw new Error(`BENCH_SYSTEMS: unknown ${unknown.join(", ")}; the systems are ${SYSTEM_IDS.join(", ")}`);
  return [...new Set(names.filter(isSystemId))];
}
