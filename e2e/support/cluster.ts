import { randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";
import {
  type Balancer,
  clusterPorts,
  type NodeProcess,
  nodeHealth,
  runtimeCommand,
  startBalancer,
  startNode,
} from "../../scripts/cluster/harness";

const root = path.resolve(import.meta.dirname, "../..");
const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** The balancer's port and its three nodes': CLUSTER_PORT_BASE + 40 to 43 (8540-8543 by default). */
export const CLUSTER_PORTS = clusterPorts(40);
export const CLUSTER_URL = `http://127.0.0.1:${CLUSTER_PORTS.balancer}`;

/** Where the global setup leaves the nodes' process ids for the specs (they run in workers). */
const PIDS_VARIABLE = "E2E_CLUSTER_PIDS";
const MASTER_VARIABLE = "E2E_CLUSTER_HAPROXY_MASTER";

/**
 * Three production nodes (serving the e2e web build) on a fresh PostgreSQL schema and the
 * machine's Redis, behind HAProxy with our configuration: the cluster an operator starts
 * with scripts/cluster.sh. Started once for the cluster config (support/clusterSetup.ts);
 * answers what stops it.
 */
export async function startCluster(): Promise<() => Promise<void>> {
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
  process.env[PIDS_VARIABLE] = nodes.map((node) => node.child.pid).join(",");
  process.env[MASTER_VARIABLE] = balancer.master;
  return async () => {
    await balancer.stop();
    for (const node of nodes) node.child.kill("SIGKILL");
    await Promise.all(nodes.map((node) => node.exited));
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  };
}

/** How many live sessions node `index` (0-2) holds (0 when it does not answer). */
export async function liveSessionsOn(index: number): Promise<number> {
  return (await nodeHealth(`http://127.0.0.1:${CLUSTER_PORTS.nodes[index] ?? 0}`))?.liveSessions ?? 0;
}

/** The node (0-2) holding a live session now, when a test has one session live at a time. */
export async function liveNode(): Promise<number> {
  for (const index of CLUSTER_PORTS.nodes.keys()) if ((await liveSessionsOn(index)) > 0) return index;
  return -1;
}

/** Kills node `index` (0-2) with SIGKILL, as a crash would; it stays down for the rest of the run. */
export function killNode(index: number): void {
  const pid = Number(process.env[PIDS_VARIABLE]?.split(",")[index]);
  if (!pid) throw new Error(`no pid for node ${index}: is the cluster's global setup running?`);
  process.kill(pid, "SIGKILL");
}

/** Puts node `index` (0-2) in the balancer's ring (`isIn`) or takes it out; its connections stay. */
export async function setInRing(index: number, isIn: boolean): Promise<void> {
  const master = process.env[MASTER_VARIABLE];
  if (!master) throw new Error("no HAProxy master socket: is the cluster's global setup running?");
  await runtimeCommand(master, `${isIn ? "enable" : "disable"} server nodes/node${index + 1}`);
}
