import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { AuthResponseSchema, CreateSessionResponseSchema, type User } from "@ensemble/protocol";
import { BENCH_LIMITS_ENV } from "../serverLimits";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The real server, started as an operator starts it, serving the web app's production build. */
export interface BenchServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Starts `apps/server` in its own process on loopback and resolves once /api/health answers. */
export async function startServer(port: number): Promise<BenchServer> {
  if (
    !existsSync(path.join(ROOT, "apps/web/dist-e2e/index.html")) ||
    !existsSync(path.join(ROOT, "apps/server/dist/main.js"))
  )
    throw new Error(
      "a build is missing: run `npm run build && npm run build:e2e` at the repository root first",
    );
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "ensemble-bench-calls-"));
  // The production server, serving the web build that carries the test hook (the bench reads it).
  const child = spawn(process.execPath, ["apps/server/dist/main.js"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      ...BENCH_LIMITS_ENV,
      WEB_DIST: path.join(ROOT, "apps/web/dist-e2e"),
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(url, child);
  } catch (error) {
    await stop();
    throw error;
  }
  if (child.pid === undefined) throw new Error("the server process has no pid");
  return { url, pid: child.pid, stop };
}

async function waitForHealth(url: string, child: ChildProcess) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    const ok = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error("the server did not answer /api/health within 60 s");
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A registered host and the session they created: the room every participant opens. */
export interface HostedSession {
  token: string;
  user: User;
  sessionId: string;
}

/** Registers a new user through the API and has them create a session. */
export async function createHostedSession(url: string, label: string): Promise<HostedSession> {
  const name = `bench_${label}_${Date.now().toString(36)}`;
  const registered = await post(`${url}/api/auth/register`, {
    name,
    email: `${name}@example.test`,
    password: "bench-pa55word",
  });
  const { token, user } = AuthResponseSchema.parse(registered);
  const created = await post(`${url}/api/session/create`, { title: `calls bench ${label}` }, token);
  return { token, user, sessionId: CreateSessionResponseSchema.parse(created).session_id };
}

async function post(url: string, body: object, token?: string): Promise<unknown> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}
