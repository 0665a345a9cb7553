import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openEditor, type TestEditor, waitFor } from "../../test/collabClient";
import { buildSession, buildUser, startTestServer, type TestServer } from "../../test/harness";

// The machine's Redis: these tests fail, not skip, without it (the test setup provides it).
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

describe("two nodes sharing PostgreSQL and Redis", () => {
  let nodes: TestServer[] = [];
  const editors: TestEditor[] = [];

  beforeAll(async () => {
    const first = await startTestServer("postgres", { REDIS_URL, NODE_ID: "node-a" });
    const second = await startTestServer("postgres", { REDIS_URL, NODE_ID: "node-b" }, { db: first.db });
    nodes = [first, second];
    await Promise.all(nodes.map((n) => n.app.cluster.ready()));
  });

  afterAll(async () => {
    await Promise.all(editors.map((e) => e.close()));
    // The second shares the first's database: close it first.
    for (const node of [...nodes].reverse()) await node.close();
  });

  it("answers each node's id and how many live sessions it holds on /api/health", async () => {
    const [a, b] = nodes as [TestServer, TestServer];
    const { host, sessionId } = await buildSession(a.api);
    const editor = await openEditor(a.url, host.token, { route: sessionId });
    editors.push(editor);
    expect((await editor.join(sessionId)).ok).toBe(true);
    const healthA = await a.api.get("/api/health");
    expect(healthA.body).toMatchObject({ ok: true, nodeId: "node-a", liveSessions: 1 });
    expect((await b.api.get("/api/health")).body).toMatchObject({ nodeId: "node-b", liveSessions: 0 });
    // The lease is taken beside the load, not before it: poll.
    await waitFor(() => a.app.cluster.ownership.owns(sessionId), 5000, "the lease");
    expect(b.app.cluster.ownership.owns(sessionId)).toBe(false);
  });

  it("reaches a socket on one node from the other: Sign out everywhere ends it (socket.io Redis adapter)", async () => {
    const [a, b] = nodes as [TestServer, TestServer];
    const user = await buildUser(a.api);
    const editor = await openEditor(a.url, user.token);
    editors.push(editor);
    let reason = "";
    editor.socket.on("disconnect", (why) => {
      reason = why;
    });
    expect((await b.api.post("/api/auth/logout-all", {}, user.token)).status).toBe(200);
    await waitFor(() => !editor.socket.connected, 5000, "the disconnect from the other node");
    expect(reason).toBe("io server disconnect");
  });
});

describe("cluster mode's configuration at start", () => {
  it("refuses the embedded database with a clear message and exit code 78", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "../main.ts")], {
      env: { PATH: process.env.PATH ?? "", PORT: "0", REDIS_URL },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(78);
    expect(output).toContain("cluster mode needs DATABASE_URL");
  }, 30_000);
});
