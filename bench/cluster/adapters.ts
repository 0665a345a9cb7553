// The socket.io Redis adapter, classic (PUBLISH, every node pattern-subscribed) against
// sharded (SPUBLISH, Redis 7; a node subscribes to a room's channel only while it has a
// socket there), as Ensemble uses it: each session's sockets on one node, its events emitted
// there. Three socket.io servers in this process, each with its own Redis connections; one
// client per session. Counts what each node's subscriber receives, and times delivery.
//   node --import tsx cluster/adapters.ts   (BENCH_REDIS_URL, BENCH_SESSIONS, BENCH_EVENTS)
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdapter, createShardedAdapter } from "@socket.io/redis-adapter";
import { Redis } from "ioredis";
import { Server } from "socket.io";
import { io as connect, type Socket } from "socket.io-client";
import { type Summary, summarize } from "../lib/stats";
import { sleep } from "../lib/wait";

const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 300);
/** Events emitted to each session's room. */
const EVENTS = Number(process.env.BENCH_EVENTS ?? 20);
const NODES = 3;

type Kind = "classic" | "sharded";

async function measure(kind: Kind): Promise<{ kind: Kind; received: number; ms: number; latency: Summary }> {
  const connections: Redis[] = [];
  let received = 0;
  const servers = await Promise.all(
    Array.from({ length: NODES }, async () => {
      const pub = new Redis(REDIS_URL);
      const sub = pub.duplicate();
      connections.push(pub, sub);
      // What reaches this node's subscriber, whether or not it has a socket for it.
      sub.on("pmessageBuffer", () => (received += 1));
      sub.on("smessageBuffer", () => (received += 1));
      const adapter =
        kind === "classic"
          ? createAdapter(pub, sub, { key: `bench-${kind}` })
          : createShardedAdapter(pub, sub, { channelPrefix: `bench-${kind}`, subscriptionMode: "dynamic" });
      const http = createServer();
      const io = new Server(http, { adapter });
      io.on("connection", (socket) => void socket.join(`session:${String(socket.handshake.query.session)}`));
      await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
      return { io, http, url: `http://127.0.0.1:${(http.address() as AddressInfo).port}` };
    }),
  );
  await sleep(300);
  const clients: Socket[] = [];
  const latencies: number[] = [];
  let delivered = 0;
  for (let s = 0; s < SESSIONS; s++) {
    const client = connect(servers[s % NODES]?.url ?? "", {
      query: { session: String(s) },
      transports: ["websocket"],
    });
    client.on("event", (sentAt: number) => {
      latencies.push(performance.now() - sentAt);
      delivered += 1;
    });
    await new Promise((resolve) => client.once("connect", () => resolve(undefined)));
    clients.push(client);
  }
  await sleep(500);
  received = 0;
  const started = performance.now();
  for (let e = 0; e < EVENTS; e++) {
    for (let s = 0; s < SESSIONS; s++)
      servers[s % NODES]?.io.to(`session:${s}`).emit("event", performance.now());
    await sleep(5);
  }
  while (delivered < SESSIONS * EVENTS && performance.now() - started < 60_000) await sleep(5);
  const ms = performance.now() - started;
  await sleep(300);
  for (const client of clients) client.disconnect();
  for (const { io, http } of servers) {
    await io.close();
    http.close();
  }
  for (const connection of connections) connection.disconnect();
  return { kind, received, ms: Math.round(ms), latency: summarize(latencies) };
}

for (const kind of ["classic", "sharded", "classic", "sharded"] as const) {
  const result = await measure(kind);
  console.log(
    `${result.kind}: ${SESSIONS * EVENTS} events to ${SESSIONS} sessions on ${NODES} nodes; ` +
      `subscribers received ${result.received} messages; all delivered in ${result.ms} ms; ` +
      `latency ${JSON.stringify(result.latency)}`,
  );
}
