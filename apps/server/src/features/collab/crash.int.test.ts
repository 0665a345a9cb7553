import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { openEditor, type TestEditor, waitFor } from "../../../test/collabClient";
import { apiClient, buildSession, TEST_POSTGRES_URL } from "../../../test/harness";

const MAIN = path.join(import.meta.dirname, "..", "..", "main.ts");

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
});

/** Starts the real server process and resolves once /api/health answers. */
async function startServer(port: number, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", MAIN], {
    env: { PATH: process.env.PATH ?? "", PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  children.push(child);
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return child;
    if (Date.now() > deadline) throw new Error("server did not start");
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Inserts unique tokens every 15 ms at a random token boundary (never inside another
 * token, so each stays findable); returns a stop function.
 */
function typeTokens(editor: TestEditor, label: string, typed: string[]) {
  let n = 0;
  const timer = setInterval(() => {
    const text = editor.file();
    const token = `[${label}-${n++}]`;
    const current = text.toString();
    const boundaries = [0, current.length];
    for (let i = current.indexOf("]"); i !== -1; i = current.indexOf("]", i + 1)) boundaries.push(i + 1);
    text.insert(boundaries[Math.floor(Math.random() * boundaries.length)] ?? 0, token);
    typed.push(token);
  }, 15);
  return () => clearInterval(timer);
}

interface Store {
  env: Record<string, string>;
  drop(): Promise<void>;
}

async function embeddedStore(): Promise<Store> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "ensemble-crash-"));
  return { env: { DATA_DIR: dir }, drop: () => fs.rm(dir, { recursive: true, force: true }) };
}

async function postgresStore(): Promise<Store> {
  const name = `ensemble_crash_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "ensemble-crash-"));
  return {
    env: { DATABASE_URL: url.toString(), DATA_DIR: dir },
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

describe.each([
  ["embedded", embeddedStore],
  ["postgres", postgresStore],
])("kill -9 while four clients type (%s)", (_kind, makeStore) => {
  it("loses no edit: every token any client typed is in the converged and stored text", async () => {
    const store = await makeStore();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    let server = await startServer(port, { ...store.env, JWT_SECRET: "crash-test-secret-0123456789abcdef" });
    const api = apiClient(url);
    const { sessionId } = await buildSession(api, "crash");

    const editors = await Promise.all(
      [0, 1, 2, 3].map(() => openEditor(url, undefined, { reconnection: true })),
    );
    for (const e of editors) expect((await e.join(sessionId)).ok).toBe(true);
    await waitFor(() => editors.every((e) => e.client.synced));
    const typed: string[][] = editors.map(() => []);
    const stops = editors.map((e, i) => typeTokens(e, `c${i}`, typed[i] as string[]));

    await new Promise((r) => setTimeout(r, 800));
    server.kill("SIGKILL");
    await new Promise((resolve) => server.once("exit", resolve));
    // Clients keep typing while the server is down; those edits are offline edits.
    await new Promise((r) => setTimeout(r, 300));
    server = await startServer(port, { ...store.env, JWT_SECRET: "crash-test-secret-0123456789abcdef" });
    await waitFor(() => editors.every((e) => e.socket.connected && e.client.synced), 30_000, "reconnect");
    await new Promise((r) => setTimeout(r, 300));
    for (const stop of stops) stop();

    await waitFor(() => new Set(editors.map((e) => e.text())).size === 1, 20_000, "convergence");
    const finalText = editors[0]?.text() ?? "";
    const all = typed.flat();
    expect(all.length).toBeGreaterThan(150);
    expect(all.filter((token) => !finalText.includes(token))).toEqual([]);

    await Promise.all(editors.map((e) => e.close()));
    const late = await openEditor(url);
    await late.join(sessionId);
    await waitFor(() => late.client.synced);
    expect(late.text()).toBe(finalText);
    await late.close();
    server.kill("SIGTERM");
    await new Promise((resolve) => server.once("exit", resolve));
    await store.drop();
  }, 120_000);
});
