import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openEditor, waitFor } from "../test/collabClient";
import { apiClient, buildSession } from "../test/harness";

const MAIN = path.join(import.meta.dirname, "main.ts");

/** Starts the real server process and resolves once it logs the port it listens on. */
function startProcess(env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", MAIN], {
    env: { PATH: process.env.PATH ?? "", PORT: "0", HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const ready = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/listening on http:\/\/localhost:(\d+)/);
      if (match) resolve(`http://127.0.0.1:${match[1]}`);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
  // A process that never gets ready is asserted on through `exited`.
  ready.catch(() => {});
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, ready, exited, output: () => output };
}

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
});

describe("the server process", () => {
  it("keeps accounts, sessions and tokens across a SIGTERM and a restart on the embedded database", async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "ensemble-main-"));
    const first = startProcess({ DATA_DIR: dataDir });
    children.push(first.child);
    const api = apiClient(await first.ready);
    const reg = await api.post("/api/auth/register", {
      name: "persisted",
      email: "p@example.test",
      password: "pw",
    });
    expect(reg.status).toBe(201);
    const token = String(reg.body.token);
    const created = await api.post("/api/session/create", { title: "kept" }, token);
    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    expect(first.output()).toContain("shutting down");
    expect(first.output()).not.toContain(token);

    const second = startProcess({ DATA_DIR: dataDir });
    children.push(second.child);
    const again = apiClient(await second.ready);
    expect((await again.get("/api/getuser", token)).body.name).toBe("persisted");
    const login = await again.post("/api/auth/login", { email: "persisted", password: "pw" });
    expect(login.status).toBe(200);
    const session = await again.get(`/api/session/${String(created.body.session_id)}`);
    expect(session.body.title).toBe("kept");
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
    const secret = await fs.stat(path.join(dataDir, "jwt-secret"));
    expect(secret.mode & 0o077).toBe(0);
    await fs.rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  it("stores the live documents on SIGTERM", async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "ensemble-term-"));
    const first = startProcess({ DATA_DIR: dataDir });
    children.push(first.child);
    const url = await first.ready;
    const api = apiClient(url);
    const { sessionId } = await buildSession(api, "term");
    const writer = await openEditor(url);
    const watcher = await openEditor(url);
    await writer.join(sessionId);
    await watcher.join(sessionId);
    await waitFor(() => writer.client.synced && watcher.client.synced);
    writer.file().insert(0, "# written just before SIGTERM\n");
    // Once the watcher has it, the server has applied it; stop at once.
    await waitFor(() => watcher.text().startsWith("# written just before SIGTERM"));
    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);

    const second = startProcess({ DATA_DIR: dataDir });
    children.push(second.child);
    const reader = await openEditor(await second.ready);
    await reader.join(sessionId);
    await waitFor(() => reader.client.synced);
    expect(reader.text()).toMatch(/^# written just before SIGTERM\n/);
    await reader.close();
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
    await fs.rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  it("refuses to start on bad configuration with a message naming each bad variable", async () => {
    const bad = startProcess({ PORT: "not-a-port", DATABASE_URL: "mysql://x", JWT_SECRET: "short" });
    children.push(bad.child);
    expect(await bad.exited).toBe(78);
    expect(bad.output()).toMatch(/Invalid configuration/);
    expect(bad.output()).toMatch(/PORT: must be a port number/);
    expect(bad.output()).toMatch(/DATABASE_URL: must be a postgres:\/\/ URL/);
    expect(bad.output()).toMatch(/JWT_SECRET: must be at least 32 characters/);
  });
});
