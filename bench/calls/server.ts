import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { AuthResponseSchema, CreateSessionResponseSchema, type User } from "@ensemble/protocol";
import { BENCH_LIMITS_ENV, ROOT, requireBuild, startServer as startProcess } from "../lib/server";

const WEB_DIST = path.join(ROOT, "apps/web/dist-e2e");

/** The real server, started as an operator starts it, serving the web app's production build. */
export interface BenchServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Starts `apps/server` in its own process on loopback and resolves once /api/health answers. */
export async function startServer(port: number): Promise<BenchServer> {
  requireBuild(WEB_DIST);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "ensemble-bench-calls-"));
  try {
    // The production server, serving the web build that carries the test hook (the bench reads it).
    const server = await startProcess({
      port,
      env: { DATA_DIR: dataDir, ...BENCH_LIMITS_ENV, WEB_DIST },
      stdio: ["ignore", "inherit", "inherit"],
    });
    const stop = async () => {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    };
    return { url: server.url, pid: server.pid, stop };
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
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
