/**
 * A load-generator process (forked by run.ts). It holds whole sessions, so a sender and its
 * receivers share one clock (performance.now()). Commands arrive over IPC; see LoadgenCommand.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { sleep } from "../lib/wait";
import { BenchSession, type Samples } from "./session";
import type { SystemId } from "./systems";
import type { Counters } from "./transports";

export type LoadgenCommand =
  | {
      type: "connect";
      system: SystemId;
      url: string;
      names: string[];
      seeds: number[];
      seedText: string;
      /** Per session, the file paths its two typists edit; both `src/main.js` when absent. */
      files?: string[][];
      /**
       * Answer after this long even if some of these sessions have not synced (`Connected.failed`
       * counts them); without it, wait for all.
       */
      timeoutMs?: number;
    }
  | { type: "type"; active: number }
  | { type: "mark" }
  /** Answers the updates its clients have sent since they connected (`UpdatesSent`). */
  | { type: "count" }
  | { type: "stop"; graceMs: number }
  | { type: "close" };

/** The answer to `connect`: these sessions' clients are synced (and the first one seeded). */
export interface Connected {
  type: "connected";
  ms: number;
  /** Sessions of this command not synced within its `timeoutMs` (0 without one). */
  failed: number;
}

export interface UpdatesSent {
  type: "count";
  updatesSent: number;
}

export interface LoadgenStats {
  type: "stats";
  keystrokes: number;
  received: number;
  disconnects: number;
  service: number[];
  intended: number[];
  lost: number;
  diverged: number;
  cpuPercent: number;
  loopDelayP99: number;
}

// y-websocket's provider adds a process "exit" listener per client.
process.setMaxListeners(0);

const sessions: BenchSession[] = [];
const counters: Counters = { keystrokes: 0, received: 0, disconnects: 0, updatesSent: 0 };
const samples: Samples = { service: [], intended: [], lost: 0 };
let typing = 0;
const loop = monitorEventLoopDelay({ resolution: 10 });
let markedAt = { wall: 0, cpu: process.cpuUsage() };

const reply = (message: object) => process.send?.(message);

async function handle(command: LoadgenCommand) {
  switch (command.type) {
    case "connect": {
      const started = performance.now();
      const added = command.names.map(
        (name, i) =>
          new BenchSession(
            command.system,
            command.url,
            name,
            command.seeds[i] ?? i,
            counters,
            samples,
            command.files?.[i],
          ),
      );
      sessions.push(...added);
      // Only this command's sessions: a session seeded twice would hold its seed twice.
      const readies = added.map((s) =>
        s.ready(command.seedText).then(
          () => true,
          (error: unknown) => {
            console.error("a session failed to get ready:", error);
            return false;
          },
        ),
      );
      const deadline =
        command.timeoutMs === undefined ? undefined : sleep(command.timeoutMs).then(() => false);
      const synced = await Promise.all(
        readies.map((ready) => (deadline ? Promise.race([ready, deadline]) : ready)),
      );
      const failed = synced.filter((isSynced) => !isSynced).length;
      reply({ type: "connected", ms: performance.now() - started, failed } satisfies Connected);
      return;
    }
    case "type":
      // Ramps only go up: sessions already typing keep typing.
      for (const session of sessions.slice(typing, command.active)) session.startTyping();
      typing = Math.max(typing, Math.min(command.active, sessions.length));
      reply({ type: "typing" });
      return;
    case "mark":
      samples.service.length = 0;
      samples.intended.length = 0;
      counters.received = 0;
      counters.disconnects = 0;
      counters.keystrokes = 0;
      for (const session of sessions) session.mark(true);
      loop.reset();
      loop.enable();
      markedAt = { wall: performance.now(), cpu: process.cpuUsage() };
      reply({ type: "marked" });
      return;
    case "count":
      reply({ type: "count", updatesSent: counters.updatesSent } satisfies UpdatesSent);
      return;
    case "stop": {
      const wall = performance.now() - markedAt.wall;
      const cpu = process.cpuUsage(markedAt.cpu);
      const { received, keystrokes } = counters;
      for (const session of sessions.slice(0, typing)) session.stopTyping();
      typing = 0;
      // In-flight keystrokes still count; those missing after the grace period are "lost".
      await sleep(command.graceMs);
      for (const session of sessions) session.mark(false);
      const stats: LoadgenStats = {
        type: "stats",
        keystrokes,
        received,
        disconnects: counters.disconnects,
        service: samples.service.map((v) => Math.round(v * 100) / 100),
        intended: samples.intended.map((v) => Math.round(v * 100) / 100),
        lost: sessions.reduce((n, s) => n + s.lostProbes(), 0),
        diverged: sessions.filter((s) => !s.isConverged()).length,
        cpuPercent: ((cpu.user + cpu.system) / 1000 / wall) * 100,
        loopDelayP99: loop.percentile(99) / 1e6 - 10,
      };
      loop.disable();
      samples.service.length = 0;
      samples.intended.length = 0;
      reply(stats);
      return;
    }
    case "close":
      for (const session of sessions) session.close();
      await sleep(200);
      process.exit(0);
  }
}

process.on("message", (command: LoadgenCommand) => {
  handle(command).catch((error: unknown) => {
    console.error("loadgen failed:", error);
    process.exit(1);
  });
});
