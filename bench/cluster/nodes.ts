import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { sleep } from "../collab/stats";

const root = path.resolve(import.meta.dirname, "../..");

/** A process of the bench's cluster: a node (the production bundle) or HAProxy. */
export interface Running {
  url: string;
  child: ChildProcess;
  exited: Promise<unknown>;
}

async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`${url}: exited ${child.exitCode}`);
    const response = await fetch(`${url}/api/health`).catch(() => undefined);
    if (response?.ok) return;
    await sleep(50);
  }
  throw new Error(`${url} never answered its health check`);
}

/** Starts `apps/server/dist/main.js` (run `npm run build` first) as cluster node `id`. */
export async function startNode(
  id: string,
  port: number,
  env: { DATABASE_URL: string; REDIS_URL: string },
): Promise<Running> {
  const child = spawn(process.execPath, [path.join(root, "apps/server/dist/main.js")], {
    cwd: root,
    env: {
      ...process.env,
      ...env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      NODE_ID: id,
      LOG_LEVEL: "warn",
      DATA_DIR: path.join(root, "data/bench-cluster"),
      TRUST_PROXY: "true",
      SESSION_CREATE_MAX_PER_ADDRESS: "100000",
      SESSION_JOIN_MAX_PER_ADDRESS: "100000",
      REGISTER_MAX_PER_ADDRESS: "100000",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const url = `http://127.0.0.1:${port}`;
  await waitForHealth(url, child);
  return { url, child, exited };
}

/** HAProxy with `scripts/cluster/haproxy.cfg` on `port`, in front of three node ports (repeats allowed). */
export async function startBalancer(port: number, nodePorts: readonly number[]): Promise<Running> {
  const [one, two, three] = nodePorts;
  const child = spawn("haproxy", ["-db", "-f", path.join(root, "scripts/cluster/haproxy.cfg")], {
    env: {
      PATH: `${process.env.PATH ?? ""}:/usr/sbin`,
      LB_BIND: "127.0.0.1",
      LB_PORT: String(port),
      NODE1_PORT: String(one),
      NODE2_PORT: String(two ?? one),
      NODE3_PORT: String(three ?? one),
    },
    stdio: ["ignore", "ignore", "ignore"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const url = `http://127.0.0.1:${port}`;
  await waitForHealth(url, child);
  return { url, child, exited };
}

/** Stops a process and waits for it (SIGTERM; a node drains first when in cluster mode). */
export async function stop(running: Running, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (running.child.exitCode === null) running.child.kill(signal);
  await running.exited;
}
