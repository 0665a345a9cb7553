import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { openTestDb, TEST_POSTGRES_URL } from "./harness";

const MAIN = path.join(import.meta.dirname, "../src/main.ts");
const HAPROXY_CONFIG = path.join(import.meta.dirname, "../../../scripts/cluster/haproxy.cfg");
/** The machine's Redis: cluster tests fail, not skip, without it. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** A server process of the cluster under test. */
export interface NodeProcess {
  id: string;
  port: number;
  url: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  output(): string;
}

/** Starts the real server (main.ts) as node `id` on `port`, in cluster mode on `databaseUrl`. */
export async function startNodeProcess(
  id: string,
  port: number,
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<NodeProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", MAIN], {
    env: {
      PATH: process.env.PATH ?? "",
      PORT: String(port),
      HOST: "127.0.0.1",
      NODE_ID: id,
      DATABASE_URL: databaseUrl,
      REDIS_URL: TEST_REDIS_URL,
      JWT_SECRET: "cluster-test-secret-that-is-long-enough-0123",
      TRUST_PROXY: "true",
      LOG_LEVEL: "warn",
      SESSION_CREATE_MAX_PER_ADDRESS: "100000",
      SESSION_JOIN_MAX_PER_ADDRESS: "100000",
      REGISTER_MAX_PER_ADDRESS: "100000",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  const collect = (chunk: Buffer) => {
    text += chunk.toString();
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  // LOG_LEVEL warn hides the listening line: poll the health endpoint instead.
  await pollUntil(async () => (await fetch(`${url}/api/health`).catch(() => undefined))?.ok === true, 30_000);
  return { id, port, url, child, exited, output: () => text };
}

/** A fresh schema on the machine's PostgreSQL, migrated, as a URL every node can use. */
export async function clusterDatabase() {
  const opened = await openTestDb("postgres");
  const [row] = await opened.db.query<{ schema: string }>("SELECT current_schema() AS schema");
  const url = new URL(TEST_POSTGRES_URL);
  url.searchParams.set("options", `-c search_path=${row?.schema ?? "public"}`);
  return { ...opened, url: url.toString() };
}

/** HAProxy with our cluster configuration in front of three node ports. */
export async function startBalancer(port: number, nodePorts: readonly [number, number, number]) {
  const child = spawn("haproxy", ["-db", "-f", HAPROXY_CONFIG], {
    env: {
      PATH: `${process.env.PATH ?? ""}:/usr/sbin`,
      LB_BIND: "127.0.0.1",
      LB_PORT: String(port),
      NODE1_PORT: String(nodePorts[0]),
      NODE2_PORT: String(nodePorts[1]),
      NODE3_PORT: String(nodePorts[2]),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  child.stdout.on("data", (chunk: Buffer) => {
    text += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    text += chunk.toString();
  });
  // A missing haproxy fails the suite (the test setup installs it), never skips it.
  const failed = new Promise<never>((_, reject) => {
    child.once("error", (error) => reject(new Error(`haproxy did not start: ${error.message}`)));
    child.once("exit", (code) => reject(new Error(`haproxy exited ${code}: ${text}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  await Promise.race([failed, pollUntil(async () => (await upNodes(url)).size === 3, 20_000)]);
  return { url, child, output: () => text };
}

/** The node ids that answer through the balancer (requests without a session go round robin). */
export async function upNodes(url: string, tries = 12): Promise<Set<string>> {
  const seen = new Set<string>();
  for (let i = 0; i < tries; i++) {
    const response = await fetch(`${url}/api/health`).catch(() => undefined);
    const body: unknown = response?.ok ? await response.json() : undefined;
    if (body && typeof body === "object" && "nodeId" in body && typeof body.nodeId === "string")
      seen.add(body.nodeId);
  }
  return seen;
}

/** Polls `check` every 100 ms until it holds, or throws after `timeoutMs`. */
export async function pollUntil(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
