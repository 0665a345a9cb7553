import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openEditor, type TestEditor, waitFor } from "../../test/collabClient";
import { buildSession, buildUser, startTestServer, type TestServer } from "../../test/harness";
import { createLogger } from "../logger";
import { redisFlight } from "./flights";
import {
  HANDOVER_AFTER_MS,
  handoverKey,
  LEASE_TTL_MS,
  type LeaseMove,
  leaseKey,
  redisOwnership,
} from "./leases";

// The machine's Redis: these tests fail, not skip, without it (the test setup provides it).
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

describe("two nodes sharing PostgreSQL and Redis", () => {
  let nodes: TestServer[] = [];
  const editors: TestEditor[] = [];

  beforeAll(async () => {
    // Handover off: these tests keep one session on both nodes on purpose (a stale route).
    const env = { REDIS_URL, RUN_RATE_MAX: "3", RUN_RATE_WINDOW_SECONDS: "600", SESSION_HANDOVER_MAX: "0" };
    const first = await startTestServer("postgres", { ...env, NODE_ID: "node-a" });
    const second = await startTestServer("postgres", { ...env, NODE_ID: "node-b" }, { db: first.db });
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

  it("holds one run per session across nodes: a run on the other node meanwhile is refused", async () => {
    const [a, b] = nodes as [TestServer, TestServer];
    const { host, sessionId } = await buildSession(a.api);
    const onA = await openEditor(a.url, host.token);
    editors.push(onA);
    expect((await onA.join(sessionId)).ok).toBe(true);
    await waitFor(() => onA.text().length > 0, 5000, "the starter file");
    const text = onA.file();
    text.delete(0, text.length);
    text.insert(0, "setTimeout(() => console.log('slow done'), 2000)");
    // Stored within a tick or two: the second node loads it (a stale route put a guest there).
    await waitFor(() => a.app.collab.rooms.counts.applied > 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const onB = await openEditor(b.url);
    editors.push(onB);
    expect((await onB.join(sessionId)).ok).toBe(true);
    await waitFor(() => onB.text().includes("slow done"), 5000, "the program on the second node");
    const first = onA.request("runCode", { sessionId });
    await waitFor(() => (onA.received.get("runStateUpdate") ?? []).length > 0, 5000, "the run to start");
    expect(await onB.request("runCode", { sessionId })).toMatchObject({
      ok: false,
      error: { code: "run_in_progress" },
    });
    expect(await first).toMatchObject({ ok: true, data: { run: { stdout: "slow done\n" } } });
    expect(await onB.request("runCode", { sessionId })).toMatchObject({ ok: true });
  });

  it("holds one git operation per repository across nodes: a node waits while another holds it", async () => {
    const [a] = nodes as [TestServer, TestServer];
    const { host, sessionId } = await buildSession(a.api);
    const editor = await openEditor(a.url, host.token);
    editors.push(editor);
    expect((await editor.join(sessionId)).ok).toBe(true);
    // Another node's git work on this repository, as that node holds it in Redis.
    const other = new Redis(REDIS_URL);
    const release = await redisFlight(other, createLogger("silent")).tryHold(`git:${sessionId}`);
    expect(release).toBeDefined();
    let answered = false;
    const status = editor.request("gitOperation", { sessionId, operation: { op: "status" } }).then((ack) => {
      answered = true;
      return ack;
    });
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(answered).toBe(false);
    await release?.();
    expect(await status).toMatchObject({ ok: true });
    other.disconnect();
  });

  it("counts the run limit across nodes: runs on one node use up another's", async () => {
    const [a, b] = nodes as [TestServer, TestServer];
    const user = await buildUser(a.api);
    const run = { language: "javascript", version: "*", files: [{ content: "console.log(1)" }] };
    // RUN_RATE_MAX is 3 per user: the session test's two runs were another user's.
    expect((await a.api.post("/api/v2/execute", run, user.token)).status).toBe(200);
    expect((await b.api.post("/api/v2/execute", run, user.token)).status).toBe(200);
    expect((await a.api.post("/api/v2/execute", run, user.token)).status).toBe(200);
    expect((await b.api.post("/api/v2/execute", run, user.token)).status).toBe(429);
  });
});

describe("single flight through Redis", () => {
  it("lets one node hold a key at a time; a waiting node gets it once released", async () => {
    const logger = createLogger("silent");
    const [one, two] = [new Redis(REDIS_URL), new Redis(REDIS_URL)];
    const [a, b] = [redisFlight(one, logger), redisFlight(two, logger)];
    const key = `test:${randomUUID()}`;
    const release = await a.tryHold(key);
    expect(release).toBeDefined();
    expect(await b.tryHold(key)).toBeUndefined();
    expect(await a.tryHold(key)).toBeUndefined();
    let isHeldByB = false;
    const waiting = b.hold(key, 20).then((releaseB) => {
      isHeldByB = true;
      return releaseB;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(isHeldByB).toBe(false);
    await release?.();
    const releaseB = await waiting;
    expect(await a.tryHold(key)).toBeUndefined();
    await releaseB();
    const again = await a.tryHold(key);
    expect(again).toBeDefined();
    await again?.();
    one.disconnect();
    two.disconnect();
  });
});

describe("session leases in Redis", () => {
  const logger = createLogger("silent");
  const connections: Redis[] = [];
  /** A node's ownership on its own two connections (state, and the announcements'). */
  const ownershipOf = (nodeId: string, maxHandovers?: number, moves: LeaseMove[] = []) => {
    const [state, events] = [new Redis(REDIS_URL), new Redis(REDIS_URL)];
    connections.push(state, events);
    return redisOwnership(state, events, nodeId, logger, maxHandovers, {
      leaseMoved: (move) => moves.push(move),
    });
  };
  afterAll(() => {
    for (const connection of connections) connection.disconnect();
  });

  it("gives a session one owner; another node serving it takes the lease once the owner lets go", async () => {
    const [a, b] = [ownershipOf("lease-a", 0), ownershipOf("lease-b", 0)];
    const redis = connections[0] as Redis;
    const sessionId = `lease-${randomUUID()}`;
    await a.claim(sessionId);
    await b.claim(sessionId);
    expect(a.owns(sessionId)).toBe(true);
    expect(b.owns(sessionId)).toBe(false);
    expect((await redis.get(leaseKey(sessionId)))?.split(" ")[0]).toBe("lease-a");
    await a.release(sessionId);
    expect(a.owns(sessionId)).toBe(false);
    // B retries at its next try.
    await waitFor(() => b.owns(sessionId), LEASE_TTL_MS, "the lease to move");
    expect((await redis.get(leaseKey(sessionId)))?.split(" ")[0]).toBe("lease-b");
    await b.close();
    expect(await redis.get(leaseKey(sessionId))).toBeNull();
    await a.close();
  });

  it("onHandover: the owner hands over once another node has served the session for a while", async () => {
    const [movesOfA, movesOfB]: LeaseMove[][] = [[], []];
    const [a, b] = [ownershipOf("hand-a", undefined, movesOfA), ownershipOf("hand-b", undefined, movesOfB)];
    const sessionId = `handover-${randomUUID()}`;
    const handed: number[] = [];
    a.onHandover((id) => {
      if (id === sessionId) handed.push(Date.now());
    });
    await a.claim(sessionId);
    const contested = Date.now();
    await b.claim(sessionId);
    await waitFor(() => handed.length > 0, 5000, "the handover");
    // Not before the hysteresis: a moment's second server does not move a session.
    expect((handed[0] ?? 0) - contested).toBeGreaterThanOrEqual(HANDOVER_AFTER_MS);
    expect(a.owns(sessionId)).toBe(true);
    // The room unloads after its clients left, which lets the lease go: B takes it.
    await a.release(sessionId);
    await waitFor(() => b.owns(sessionId), 2000, "the new owner");
    // What the metrics count: one move each way, the claims themselves none.
    expect(movesOfA).toEqual(["handed_over"]);
    expect(movesOfB).toEqual(["taken"]);
    await Promise.all([a.close(), b.close()]);
  });

  it("reports a lease taken by another node while held here as lost", async () => {
    const moves: LeaseMove[] = [];
    const a = ownershipOf("lost-a", 0, moves);
    const sessionId = `lost-${randomUUID()}`;
    await a.claim(sessionId);
    expect(a.owns(sessionId)).toBe(true);
    // Another node's write, as after this one stalled past its lease's TTL.
    await (connections[0] as Redis).set(leaseKey(sessionId), "lost-b other-token", "PX", LEASE_TTL_MS);
    await waitFor(() => !a.owns(sessionId), LEASE_TTL_MS, "the renewal to fail");
    expect(moves).toEqual(["lost"]);
    await a.close();
  });

  it("hands one session over at most SESSION_HANDOVER_MAX times a minute, however the nodes bounce it", async () => {
    const max = 2;
    const [a, b] = [ownershipOf("bounce-a", max), ownershipOf("bounce-b", max)];
    const sessionId = `bounce-${randomUUID()}`;
    let handovers = 0;
    // Each node reloads the session at once after giving it up (as a client reaching it
    // directly would make it): without a bound this would go on for ever.
    for (const [node, other] of [
      [a, b],
      [b, a],
    ] as const) {
      node.onHandover((id) => {
        handovers += 1;
        void node.release(id).then(async () => {
          await waitFor(() => other.owns(id), 2000, "the other node's lease");
          await node.claim(id);
        });
      });
    }
    await a.claim(sessionId);
    await b.claim(sessionId);
    await waitFor(() => handovers === max, 10_000, `${max} handovers`);
    // The budget is spent: both nodes go on serving, one of them holding the lease.
    await new Promise((resolve) => setTimeout(resolve, 3 * HANDOVER_AFTER_MS));
    expect(handovers).toBe(max);
    expect(a.owns(sessionId) !== b.owns(sessionId)).toBe(true);
    expect(Number(await (connections[0] as Redis).get(handoverKey(sessionId)))).toBe(max + 1);
    await Promise.all([a.close(), b.close()]);
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
