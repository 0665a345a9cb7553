import { ConfigError } from "../env";

/** What decides cluster mode: a Redis to share state through, and where the data lives. */
interface ClusterInputs {
  REDIS_URL?: string | undefined;
  DATABASE_URL?: string | undefined;
}

/** Whether this node is one of several: `REDIS_URL` is set (DESIGN decision 7). */
export function isClusterMode(config: ClusterInputs): boolean {
  return config.REDIS_URL !== undefined;
}

/**
 * Refuses cluster mode on the embedded database: it lives in one node's data folder, so the
 * other nodes would each keep their own sessions and lose each other's edits on failover.
 */
export function assertClusterConfig(config: ClusterInputs): void {
  if (isClusterMode(config) && config.DATABASE_URL === undefined) {
    throw new ConfigError(
      "Invalid configuration:\n  REDIS_URL: cluster mode needs DATABASE_URL (a PostgreSQL server every node " +
        "shares); the embedded database belongs to one process. Set DATABASE_URL, or unset REDIS_URL to run one node.",
    );
  }
}
