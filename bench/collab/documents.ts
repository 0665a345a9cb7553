import { AuthResponseSchema, CreateSessionResponseSchema } from "@ensemble/protocol";
import type { ServerHandle } from "./servers";

/**
 * Names of `count` fresh documents on `server`. Hocuspocus and y-websocket create a document
 * on first use; our server only serves sessions that exist, so one benchmark user creates them
 * through the REST API (the sessions' sockets then join as anonymous guests, which is allowed).
 */
export async function createDocuments(
  server: ServerHandle,
  count: number,
  prefix: string,
): Promise<string[]> {
  if (server.system !== "ours") return Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
  const token = await register(server.url, prefix);
  const names: string[] = [];
  // A few at a time: creating a session is one DB transaction.
  for (let i = 0; i < count; i += 10) {
    const batch = Array.from({ length: Math.min(10, count - i) }, (_, j) =>
      createSession(server.url, token, `${prefix} ${i + j}`),
    );
    names.push(...(await Promise.all(batch)));
  }
  return names;
}

async function postJson(url: string, body: object, token?: string): Promise<unknown> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** Registers a new user named after `prefix` through the REST API; resolves with their token. */
export async function register(baseUrl: string, prefix: string): Promise<string> {
  const name = `${prefix}-${Date.now()}`;
  const body = await postJson(`${baseUrl}/api/auth/register`, {
    name,
    email: `${name}@bench.invalid`,
    password: "benchmark password",
  });
  return AuthResponseSchema.parse(body).token;
}

/** Creates a session hosted by the holder of `token`; resolves with its id. */
export async function createSession(baseUrl: string, token: string, title: string): Promise<string> {
  const body = await postJson(`${baseUrl}/api/session/create`, { title }, token);
  return CreateSessionResponseSchema.parse(body).session_id;
}
