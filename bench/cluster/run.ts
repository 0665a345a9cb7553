// Cluster benchmark (docs/operations.md): what HAProxy adds to a keystroke's latency, and how
// long a session takes to be editable again after its node is killed. Needs `npm run build`,
// haproxy, Redis (BENCH_REDIS_URL, default 127.0.0.1:6379) and a PostgreSQL database
// (BENCH_DATABASE_URL, required). Writes results.json and RESULTS.md beside this file.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { type NodeProcess, startBalancer, startNode, stopNode } from "../../scripts/cluster/harness";
import { createSession, register } from "../collab/documents";
import { freePort } from "../collab/servers";
import { type Counters, connectClient } from "../collab/transports";
import { type Summary, summarize } from "../lib/stats";
import { sleep } from "../lib/wait";
import { textNameOf, textOf } from "./typing";

const DATABASE_URL = process.env.BENCH_DATABASE_URL;
if (!DATABASE_URL) throw new Error("set BENCH_DATABASE_URL to a PostgreSQL database the bench may fill");
const env = {
  REDIS_URL: process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379",
  NODE_ENV: "production",
  DATA_DIR: path.resolve(import.meta.dirname, "../../data/bench-cluster"),
};
/** Starts the production bundle (run `npm run build` first) as cluster node `id`. */
const startBenchNode = (id: string, port: number) =>
  startNode({ id, port, databaseUrl: DATABASE_URL ?? "", main: "dist" }, env);
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 20);
const DWELL_MS = Number(process.env.BENCH_DWELL_S ?? 15) * 1000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const KILLS = Number(process.env.BENCH_KILLS ?? 6);
/** A keystroke every 100 ms per typist: a fast typist. */
const KEY_INTERVAL_MS = 100;

/** A session with a typist and a watcher, both through `url`; the watcher times each keystroke. */
async function openPair(url: string, token: string, title: string, samples: number[]) {
  const sessionId = await createSession(url, token, title);
  const counters: Counters = { keystrokes: 0, received: 0, disconnects: 0, updatesSent: 0 };
  const typist = connectClient("ours", url, sessionId, counters);
  const watcher = connectClient("ours", url, sessionId, counters);
  await Promise.all([typist.synced, watcher.synced]);
  const sentAt: number[] = [];
  let typed = 0;
  const base = textOf(typist).length;
  let seen = 0;
  // The watcher sees the text grow; each character past what it saw is one keystroke arriving.
  watcher.doc.on("update", () => {
    const length = textOf(watcher).length - base;
    const now = performance.now();
    for (; seen < length && seen < sentAt.length; seen++) samples.push(now - (sentAt[seen] ?? now));
  });
  return {
    sessionId,
    /** Whether either client lost its connection since it connected (its node died). */
    wasDisconnected: () => counters.disconnects > 0,
    type() {
      const text = typist.doc.getText(textNameOf(typist));
      sentAt.push(performance.now());
      text.insert(text.length, String(typed % 10));
      typed += 1;
    },
    /** When the watcher last saw a keystroke typed at or after `since`, or undefined. */
    deliveredSince(since: number) {
      const index = sentAt.findIndex((t) => t >= since);
      return index !== -1 && seen > index;
    },
    close() {
      typist.close();
      watcher.close();
    },
  };
}

type Pair = Awaited<ReturnType<typeof openPair>>;

/** Keystroke latency with the same load on one node, directly and through HAProxy. */
async function measureLatency(): Promise<{ direct: Summary; balanced: Summary; rounds: object[] }> {
  const port = await freePort();
  const node = await startBenchNode("bench-node", port);
  const balancer = await startBalancer(await freePort(), [port, port, port]);
  const token = await register(node.url, "cluster-bench");
  const all = { direct: [] as number[], balanced: [] as number[] };
  const rounds: object[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const [kind, url] of [
        ["direct", node.url],
        ["balanced", balancer.url],
      ] as const) {
        const samples: number[] = [];
        const pairs: Pair[] = [];
        for (let s = 0; s < SESSIONS; s++)
          pairs.push(await openPair(url, token, `${kind} ${round} ${s}`, samples));
        // Typists start spread over one interval, as people do.
        const started = await Promise.all(
          pairs.map(async (pair, i) => {
            await sleep((i * KEY_INTERVAL_MS) / pairs.length);
            return setInterval(() => pair.type(), KEY_INTERVAL_MS);
          }),
        );
        await sleep(DWELL_MS);
        for (const timer of started) clearInterval(timer);
        await sleep(500);
        for (const pair of pairs) pair.close();
        all[kind].push(...samples);
        rounds.push({ round, kind, ...summarize(samples) });
        console.log(`${kind} round ${round}: ${JSON.stringify(summarize(samples))}`);
      }
    }
  } finally {
    await balancer.stop();
    await stopNode(node);
  }
  return { direct: summarize(all.direct), balanced: summarize(all.balanced), rounds };
}

/** Kills the node of some sessions with SIGKILL; times each until a keystroke typed after the kill arrives. */
async function measureFailover(): Promise<{ editableAgain: Summary; kills: object[] }> {
  const ports = [await freePort(), await freePort(), await freePort()] as const;
  const nodes: NodeProcess[] = [];
  for (const [i, port] of ports.entries()) nodes[i] = await startBenchNode(`node${i + 1}`, port);
  const balancer = await startBalancer(await freePort(), ports);
  const token = await register(balancer.url, "failover-bench");
  const times: number[] = [];
  const kills: object[] = [];
  try {
    for (let kill = 0; kill < KILLS; kill++) {
      const samples: number[] = [];
      const pairs: Pair[] = [];
      for (let s = 0; s < 10; s++)
        pairs.push(await openPair(balancer.url, token, `failover ${kill} ${s}`, samples));
      const victim = kill % 3;
      const timer = setInterval(() => {
        for (const pair of pairs) pair.type();
      }, KEY_INTERVAL_MS);
      await sleep(1000);
      const killedAt = performance.now();
      await stopNode(nodes[victim] as NodeProcess, "SIGKILL");
      // Keystrokes typed before it was gone may still have been served by it.
      const deadAt = performance.now();
      // The victim's sessions are those whose clients lose their connection; the others
      // never stop delivering. A session is back when a keystroke typed after the kill arrives.
      const pending = new Set(pairs);
      const moved = new Set<Pair>();
      while (pending.size > 0 && performance.now() - killedAt < 30_000) {
        for (const pair of pending) {
          if (pair.wasDisconnected()) moved.add(pair);
          if (!pair.deliveredSince(deadAt)) continue;
          if (moved.has(pair)) times.push(performance.now() - killedAt);
          pending.delete(pair);
        }
        await sleep(10);
      }
      const moving = [...moved];
      clearInterval(timer);
      kills.push({ kill, node: `node${victim + 1}`, sessionsMoved: moving.length, notBack: pending.size });
      console.log(
        `kill ${kill}: node${victim + 1}, ${moving.length} sessions moved, ${pending.size} not back`,
      );
      for (const pair of pairs) pair.close();
      nodes[victim] = await startBenchNode(`node${victim + 1}`, ports[victim] as number);
      await sleep(3000);
    }
  } finally {
    await balancer.stop();
    for (const node of nodes) await stopNode(node);
  }
  return { editableAgain: summarize(times), kills };
}

const latency = await measureLatency();
const failover = await measureFailover();
const results = { date: new Date().toISOString(), sessions: SESSIONS, dwellMs: DWELL_MS, latency, failover };
writeFileSync(path.join(import.meta.dirname, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
const row = (name: string, s: Summary) =>
  `| ${name} | ${s.count} | ${s.p50.toFixed(2)} | ${s.p99.toFixed(2)} | ${s.max.toFixed(1)} |`;
console.log(
  [
    "| path | keystrokes | p50 ms | p99 ms | max ms |",
    "|---|---|---|---|---|",
    row("one node, direct", latency.direct),
    row("one node, through HAProxy", latency.balanced),
    "",
    "| failover | sessions | p50 ms | p99 ms | max ms |",
    "|---|---|---|---|---|",
    `| editable again after SIGKILL | ${failover.editableAgain.count} | ${failover.editableAgain.p50.toFixed(0)} | ${failover.editableAgain.p99.toFixed(0)} | ${failover.editableAgain.max.toFixed(0)} |`,
  ].join("\n"),
);
