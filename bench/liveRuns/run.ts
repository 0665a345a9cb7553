/**
 * Live runs benchmark (see README.md): the time from a program's write to the text reaching
 * another participant of the session, over 200 writes, at two cadences: a write every
 * 100 ms (progress lines: each one comes after a quiet spell) and every 10 ms (a busy
 * program: the server's 50 ms batching decides). Writes RESULTS.md beside this file (or
 * into BENCH_OUT).
 */
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Ack, type TerminalEntry, TerminalUpdateSchema } from "@ensemble/protocol";
import type { Socket } from "socket.io-client";
import { createSession } from "../collab/documents";
import { joinSession, ourSocket } from "../collab/ourSocket";
import { machineInfo } from "../collab/report";
import { rerunInSnapshot } from "../collab/snapshot";
import { startRunServer } from "../execution/server";
import { ms, percentile } from "../execution/stats";

const env = process.env;
const outDir = env.BENCH_OUT ?? import.meta.dirname;
rerunInSnapshot("liveRuns/run.ts", outDir);

const WRITES = Number(env.BENCH_WRITES ?? 200);
const CADENCES = [100, 10];

/** A program that writes `count` lines, each carrying the wall-clock time (ms, µs precision) it was written. */
const writer = (count: number, gapMs: number) =>
  `let i = 0;
const timer = setInterval(() => {
  console.log("w " + i + " " + (performance.timeOrigin + performance.now()).toFixed(3));
  if (++i === ${count}) clearInterval(timer);
}, ${gapMs});
`;

const now = () => performance.timeOrigin + performance.now();

/** Each write's delay (ms) from the program's clock to its arrival at `watcher`. */
async function measure(host: Socket, watcher: Socket, sessionId: string, gapMs: number): Promise<number[]> {
  const path = `bench/writer-${gapMs}.js`;
  const created: Ack<unknown> = await host.emitWithAck("createFile", {
    sessionId,
    path,
    kind: "file",
    content: writer(WRITES, gapMs),
  });
  if (!created.ok) throw new Error(`createFile: ${created.error.message}`);
  const delays: number[] = [];
  let partial = "";
  const onUpdate = (payload: unknown) => {
    const arrived = now();
    const update = TerminalUpdateSchema.parse(payload);
    const entries: TerminalEntry[] = update.entries ?? (update.entry ? [update.entry] : []);
    for (const entry of entries) {
      if (entry.type !== "output") continue;
      // A line cut between two batches arrives when its end does.
      const lines = (partial + entry.content).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) {
        const [, , at] = line.split(" ");
        if (at !== undefined) delays.push(arrived - Number(at));
      }
    }
  };
  watcher.on("terminalUpdate", onUpdate);
  // The watcher's last output comes before its result, not necessarily before the host's ack.
  const result = new Promise((resolve) => watcher.once("executionResult", resolve));
  const ack: Ack<{ run: { status: string | null } }> = await host
    .timeout(120_000)
    .emitWithAck("runCode", { sessionId, file: path });
  await result;
  watcher.off("terminalUpdate", onUpdate);
  if (!ack.ok || ack.data.run.status !== null) throw new Error(`run failed: ${JSON.stringify(ack)}`);
  if (delays.length !== WRITES) throw new Error(`saw ${delays.length} of ${WRITES} writes`);
  return delays;
}

const loadBefore = os.loadavg();
const server = await startRunServer();
const results: { gapMs: number; delays: number[] }[] = [];
try {
  const sessionId = await createSession(server.url, server.token, "live runs bench");
  const host = ourSocket(server.url, server.token);
  const guest = ourSocket(server.url);
  await joinSession(host, sessionId);
  await joinSession(guest, sessionId);
  // One warm-up run: the first start of each interpreter reads it from disk.
  await measure(host, guest, sessionId, 1).catch(() => []);
  for (const gapMs of CADENCES) {
    const delays = await measure(host, guest, sessionId, gapMs);
    results.push({ gapMs, delays });
    console.log(
      `every ${gapMs} ms: p50 ${ms(percentile(delays, 50))} ms, p99 ${ms(percentile(delays, 99))} ms`,
    );
  }
  host.disconnect();
  guest.disconnect();
} finally {
  await server.close();
}

const machine = machineInfo();
const rows = results.map(
  ({ gapMs, delays }) =>
    `| every ${gapMs} ms | ${delays.length} | ${ms(percentile(delays, 50))} | ${ms(percentile(delays, 99))} | ${ms(Math.max(...delays))} |`,
);
writeFileSync(
  path.join(outDir, "RESULTS.md"),
  `# Live runs: a program's write to another participant

Measured ${machine.dateUtc} on ${env.BENCH_SNAPSHOT ?? "the working tree"}, by \`node --import tsx bench/liveRuns/run.ts\`
(see README.md). Target: p50 ≤ 60 ms, p99 ≤ 150 ms.

| program writes | writes | p50 (ms) | p99 (ms) | max (ms) |
|---|---|---|---|---|
${rows.join("\n")}

Machine: ${machine.nproc} cores, ${machine.cpu}, Node ${machine.node}, kernel ${machine.kernel}; load
average ${loadBefore.map((l) => l.toFixed(2)).join(", ")} before the run, ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(", ")} after it (the machine is shared with other engineers' test runs).

\`\`\`
${machine.memory}
\`\`\`
`,
);
console.log(`wrote ${path.join(outDir, "RESULTS.md")}`);
