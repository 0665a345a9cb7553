/**
 * Preloaded into every server under test (`node --expose-gc --import <this, compiled> server.js`),
 * so the three servers are instrumented the same way without patching any of them. Over the IPC
 * channel it answers `{ type: "probe" }` with memory and event-loop delay, after a full GC when
 * asked; the delay histogram restarts after each answer.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";

export interface ProbeReply {
  type: "probe";
  rss: number;
  heapUsed: number;
  /** Event-loop delay since the last probe, in ms. */
  loopDelay: { p50: number; p99: number; max: number };
}

// The histogram records whole timer intervals; the delay is what exceeds the resolution.
const RESOLUTION_MS = 10;
const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
histogram.enable();

const gc = (globalThis as { gc?: () => void }).gc;

if (process.send) {
  process.on("message", (message: { type?: string; gc?: boolean }) => {
    if (message.type !== "probe") return;
    if (message.gc && gc) {
      gc();
      gc();
    }
    const memory = process.memoryUsage();
    const reply: ProbeReply = {
      type: "probe",
      rss: memory.rss,
      heapUsed: memory.heapUsed,
      loopDelay: {
        p50: histogram.percentile(50) / 1e6 - RESOLUTION_MS,
        p99: histogram.percentile(99) / 1e6 - RESOLUTION_MS,
        max: histogram.max / 1e6 - RESOLUTION_MS,
      },
    };
    histogram.reset();
    process.send?.(reply);
  });
  // The channel must not keep a server alive once it has closed everything else.
  process.channel?.unref();
}
