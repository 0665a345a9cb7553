import { Redis } from "ioredis";
import { afterAll, beforeAll } from "vitest";
import {
  type Balancer,
  clusterPorts,
  type NodeProcess,
  startBalancer,
  startNode,
  TEST_REDIS_URL,
} from "../../../scripts/cluster/harness";
import { leaseKey } from "../src/cluster/leases";
import { openEditor, type TestEditor, waitFor } from "./collabClient";
import { openTestDb, TEST_POSTGRES_URL } from "./harness";

export {
  type Balancer,
  type NodeProcess,
  nodeHealth,
  TEST_REDIS_URL,
  upNodes,
} from "../../../scripts/cluster/harness";

/** A fresh schema on the machine's PostgreSQL, migrated, as a URL every node can use. */
export async function clusterDatabase() {
  const opened = await openTestDb("postgres");
  const [row] = await opened.db.query<{ schema: string }>("SELECT current_schema() AS schema");
  const url = new URL(TEST_POSTGRES_URL);
  url.searchParams.set("options", `-c search_path=${row?.schema ?? "public"}`);
  return { ...opened, url: url.toString() };
}

/**
 * A describe's cluster: a migrated schema, three nodes from source (`node1`…`node3`) and
 * HAProxy on `clusterPorts(offset)`, started before its tests and stopped after them, with
 * the editors its tests open closed first.
 */
export function useCluster(offset: number) {
  const ports = clusterPorts(offset);
  let database: Awaited<ReturnType<typeof clusterDatabase>> | undefined;
  let balancer: Balancer | undefined;
  const nodes: NodeProcess[] = [];
  const redis = new Redis(TEST_REDIS_URL);
  const editors: TestEditor[] = [];

  /** Starts (or starts again) node `index` (0-2) on its port. */
  const startNodeAt = async (index: number) => {
    const port = ports.nodes[index] ?? 0;
    const id = `node${index + 1}`;
    nodes[index] = await startNode({ id, port, databaseUrl: database?.url ?? "", main: "source" });
  };

  beforeAll(async () => {
    database = await clusterDatabase();
    await Promise.all(ports.nodes.map((_, i) => startNodeAt(i)));
    balancer = await startBalancer(ports.balancer, ports.nodes);
  }, 90_000);

  afterAll(async () => {
    await Promise.all(editors.map((e) => e.close().catch(() => {})));
    await balancer?.stop();
    for (const node of nodes) node.child.kill("SIGKILL");
    await Promise.all(nodes.map((node) => node.exited));
    redis.disconnect();
    await database?.drop();
  });

  return {
    nodes,
    redis,
    editors,
    startNode: startNodeAt,
    get balancer(): Balancer {
      if (!balancer) throw new Error("the cluster is not started");
      return balancer;
    },
    /** The node id that holds a session's lease now (undefined: none). */
    owner: async (sessionId: string) => (await redis.get(leaseKey(sessionId)))?.split(" ")[0],
    /** `count` guests of a session through the balancer, joined, each with its lane open. */
    async openTypists(sessionId: string, count: number, browserBackoff = false) {
      const url = this.balancer.url;
      const typists: TestEditor[] = [];
      for (let t = 0; t < count; t++) {
        const editor = await openEditor(url, undefined, {
          route: sessionId,
          lane: true,
          reconnection: true,
          browserBackoff,
        });
        editors.push(editor);
        typists.push(editor);
        const joined = await editor.join(sessionId);
        if (!joined.ok) throw new Error(`join failed: ${joined.error.message}`);
      }
      for (const typist of typists) await waitFor(() => typist.lane() !== undefined, 10_000, "the lane");
      return typists;
    },
  };
}
