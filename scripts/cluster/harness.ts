// The one cluster harness of the tests: node processes and HAProxy with scripts/cluster's
// configuration, as scripts/cluster.sh starts them. The server's cluster suites
// (apps/server/test/cluster.ts) and the e2e cluster walk (e2e/support/cluster.ts) import it.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
const HAPROXY_CONFIG = path.join(root, "scripts/cluster/haproxy.cfg");
/** The machine's Redis: cluster tests fail, not skip, without it. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/**
 * The ports of one cluster suite: its balancer at `CLUSTER_PORT_BASE` (8500 unless set) plus
 * `offset`, and its three nodes on the next three. Two checkouts that run cluster suites at
 * once set different bases (say 8500 and 9500).
 */
export function clusterPorts(offset: number) {
  const base = Number(process.env.CLUSTER_PORT_BASE ?? 8500) + offset;
  return { balancer: base, nodes: [base + 1, base + 2, base + 3] as const };
}

/** A server process of the cluster under test. */
export interface NodeProcess {
  id: string;
  port: number;
  url: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  output(): string;
}

/**
 * Starts a server as node `id` on `port` in cluster mode on `databaseUrl` and the machine's
 * Redis, and resolves once its health check answers: `main` is the production bundle
 * (apps/server/dist/main.js) or the source (apps/server/src/main.ts, run through tsx).
 */
export async function startNode(
  options: { id: string; port: number; databaseUrl: string; main: "dist" | "source" },
  env: Record<string, string> = {},
): Promise<NodeProcess> {
  const { id, port, databaseUrl, main } = options;
  const args =
    main === "dist"
      ? [path.join(root, "apps/server/dist/main.js")]
      : ["--import", "tsx", path.join(root, "apps/server/src/main.ts")];
  const child = spawn(process.execPath, args, {
    cwd: root,
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
      REGISTER_MAX_PER_ADDRESS: "100000",
      SESSION_CREATE_MAX_PER_ADDRESS: "100000",
      SESSION_JOIN_MAX_PER_ADDRESS: "100000",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  const collect = (chunk: Buffer) => {
    text += chunk.toString();
    if (process.env.CLUSTER_NODE_OUTPUT) process.stderr.write(`[${id}] ${chunk.toString()}`);
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  // LOG_LEVEL warn hides the listening line: poll the health endpoint instead.
  await Promise.race([
    pollUntil(async () => (await fetch(`${url}/api/health`).catch(() => undefined))?.ok === true, 30_000),
    exited.then((code) => {
      throw new Error(`node ${id} exited ${code} before it answered: ${text}`);
    }),
  ]);
  return { id, port, url, child, exited, output: () => text };
}

/** Stops a node and waits for its exit (SIGTERM drains it first; SIGKILL is a crash). */
export async function stopNode(node: NodeProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (node.child.exitCode === null) node.child.kill(signal);
  await node.exited;
}

/** HAProxy with our cluster configuration in front of three nodes, and its runtime API. */
export interface Balancer {
  url: string;
  child: ChildProcess;
  output(): string;
  /** The master CLI's socket, for `runtimeCommand` from another process. */
  master: string;
  /** Sends a command to the worker's runtime API (say `disable server nodes/node1`); its answer. */
  command(line: string): Promise<string>;
  stop(): Promise<void>;
}

/** Starts HAProxy on `port` in front of `nodePorts`; resolves once all three nodes answer through it. */
export async function startBalancer(
  port: number,
  nodePorts: readonly [number, number, number],
): Promise<Balancer> {
  const folder = mkdtempSync(path.join(os.tmpdir(), "ensemble-haproxy-"));
  const master = path.join(folder, "master.sock");
  // -W -S: the master's CLI, through which a test reaches the worker's runtime API (`@1 …`).
  const child = spawn("haproxy", ["-W", "-db", "-S", master, "-f", HAPROXY_CONFIG], {
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
  const collect = (chunk: Buffer) => {
    text += chunk.toString();
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // A missing haproxy fails the suite (the test setup installs it), never skips it.
  const failed = new Promise<never>((_, reject) => {
    child.once("error", (error) => reject(new Error(`haproxy did not start: ${error.message}`)));
    child.once("exit", (code) => reject(new Error(`haproxy exited ${code}: ${text}`)));
  });
  failed.catch(() => {});
  const url = `http://127.0.0.1:${port}`;
  // A port may repeat (the benchmark puts one node behind all three names).
  const distinct = new Set(nodePorts).size;
  await Promise.race([failed, pollUntil(async () => (await upNodes(url)).size === distinct, 20_000)]);
  return {
    url,
    child,
    output: () => text,
    master,
    command: (line) => runtimeCommand(master, line),
    async stop() {
      child.kill("SIGTERM");
      await exited;
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** Sends `line` to HAProxy's runtime API through its master CLI at `master`; its answer. */
export function runtimeCommand(master: string, line: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let answer = "";
    const socket = net.connect(master, () => socket.end(`@1 ${line}\n`));
    socket.on("data", (chunk) => {
      answer += chunk.toString();
    });
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

/** The node ids that answer through the balancer (requests without a session go round robin). */
export async function upNodes(url: string, tries = 12): Promise<Set<string>> {
  const seen = new Set<string>();
  for (let i = 0; i < tries; i++) {
    const health = await nodeHealth(url);
    if (health) seen.add(health.nodeId);
  }
  return seen;
}

/** What a node's `/api/health` answers (undefined while it does not answer 200). */
export async function nodeHealth(url: string): Promise<{ nodeId: string; liveSessions: number } | undefined> {
  const response = await fetch(`${url}/api/health`).catch(() => undefined);
  const body: unknown = response?.ok ? await response.json() : undefined;
  if (!body || typeof body !== "object" || !("nodeId" in body) || !("liveSessions" in body)) return undefined;
  const { nodeId, liveSessions } = body;
  return typeof nodeId === "string" && typeof liveSessions === "number"
    ? { nodeId, liveSessions }
    : undefined;
}

/** Polls `check` every 100 ms until it holds, or throws after `timeoutMs`. */
async function pollUntil(
  check: () => Promise<boolean>,
  timeoutMs: number,
  what = "a condition",
): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
