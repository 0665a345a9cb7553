import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";

const root = path.resolve(import.meta.dirname, "../..");
const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** The balancer's port and its three nodes' (cluster suites use 8500 and up). */
export const CLUSTER_PORTS = { balancer: 8540, nodes: [8541, 8542, 8543] } as const;
export const CLUSTER_URL = `http://127.0.0.1:${CLUSTER_PORTS.balancer}`;

async function healthy(url: string): Promise<boolean> {
  const response = await fetch(`${url}/api/health`).catch(() => undefined);
  return response?.ok === true;
}

async function poll(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

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
  const dataDir = path.join(root, ".test-output", `e2e-cluster-${CLUSTER_PORTS.balancer}`);
  const nodes: (ChildProcess | undefined)[] = [];
  const startNode = async (index: number) => {
    const port = CLUSTER_PORTS.nodes[index] ?? 0;
    nodes[index] = spawn(process.execPath, [path.join(root, "apps/server/dist/main.js")], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? "",
        PORT: String(port),
        HOST: "127.0.0.1",
        NODE_ID: `node${index + 1}`,
        DATABASE_URL: databaseUrl.toString(),
        REDIS_URL,
        DATA_DIR: dataDir,
        WEB_DIST: path.join(root, "apps/web/dist-e2e"),
        TRUST_PROXY: "true",
        ALLOWED_HOSTS: `127.0.0.1:${CLUSTER_PORTS.balancer}`,
        LOG_LEVEL: "warn",
        REGISTER_MAX_PER_ADDRESS: "10000",
        SESSION_CREATE_MAX_PER_ADDRESS: "10000",
        SESSION_JOIN_MAX_PER_ADDRESS: "10000",
      },
      stdio: ["ignore", "ignore", "inherit"],
    });
    await poll(() => healthy(`http://127.0.0.1:${port}`), `node${index + 1}`);
  };
  for (let i = 0; i < CLUSTER_PORTS.nodes.length; i++) await startNode(i);
  const [one, two, three] = CLUSTER_PORTS.nodes;
  const balancer = spawn("haproxy", ["-db", "-f", path.join(root, "scripts/cluster/haproxy.cfg")], {
    env: {
      PATH: `${process.env.PATH ?? ""}:/usr/sbin`,
      LB_BIND: "127.0.0.1",
      LB_PORT: String(CLUSTER_PORTS.balancer),
      NODE1_PORT: String(one),
      NODE2_PORT: String(two),
      NODE3_PORT: String(three),
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  balancer.once("error", (error) => {
    throw new Error(`haproxy did not start: ${error.message}`);
  });
  await poll(() => healthy(CLUSTER_URL), "the balancer");
  return {
    /** The node (0-2) holding a live session now, when a test has one session live at a time. */
    async liveNode(): Promise<number> {
      for (const [index, port] of CLUSTER_PORTS.nodes.entries()) {
        const response = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => undefined);
        const body: unknown = response?.ok ? await response.json() : undefined;
        const live = body && typeof body === "object" && "liveSessions" in body ? body.liveSessions : 0;
        if (typeof live === "number" && live > 0) return index;
      }
      return -1;
    },
    kill(index: number) {
      nodes[index]?.kill("SIGKILL");
    },
    async stop() {
      balancer.kill("SIGTERM");
      for (const node of nodes) node?.kill("SIGKILL");
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
}
