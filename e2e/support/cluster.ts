import { randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";
import {
  type Balancer,
  clusterPorts,
  type NodeProcess,
  nodeHealth,
  startBalancer,
  startNode,
} from "../../scripts/cluster/harness";

const root = path.resolve(import.meta.dirname, "../..");
const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** The balancer's port and its three nodes': CLUSTER_PORT_BASE + 40 to 43 (8540-8543 by default). */
export const CLUSTER_PORTS = clusterPorts(40);
export const CLUSTER_URL = `http://127.0.0.1:${CLUSTER_PORTS.balancer}`;

/**
 * Three production nodes (serving the e2e web build) on a fresh PostgreSQL schema and the
 * machine's Redis, behind HAProxy with our configuration: the cluster an operator starts
 * with scripts/cluster.sh, with each process's handle kept so a test can kill one.
 */
export async function startCluster() {
  const schema = `e2e_cluster_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const databaseUrl = new URL(POSTGRES_URL);
  databaseUrl.searchParams.set("options", `-c search_path=${schema}`);
  const env = {
    DATA_DIR: path.join(root, ".test-output", `e2e-cluster-${CLUSTER_PORTS.balancer}`),
    WEB_DIST: path.join(root, "apps/web/dist-e2e"),
    ALLOWED_HOSTS: `127.0.0.1:${CLUSTER_PORTS.balancer}`,
  };
  const nodes: NodeProcess[] = [];
  for (const [index, port] of CLUSTER_PORTS.nodes.entries()) {
    const options = {
      id: `node${index + 1}`,
      port,
      databaseUrl: databaseUrl.toString(),
      main: "dist",
    } as const;
    nodes.push(await startNode(options, env));
  }
  const balancer: Balancer = await startBalancer(CLUSTER_PORTS.balancer, CLUSTER_PORTS.nodes);
  return {
    /** The node (0-2) holding a live session now, when a test has one session live at a time. */
    async liveNode(): Promise<number> {
      for (const [index, node] of nodes.entries())
        if (((await nodeHealth(node.url))?.liveSessions ?? 0) > 0) return index;
      return -1;
    },
    kill(index: number) {
      nodes[index]?.child.kill("SIGKILL");
    },
    async stop() {
      await balancer.stop();
      for (const node of nodes) node.child.kill("SIGKILL");
      await Promise.all(nodes.map((node) => node.exited));
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
}
