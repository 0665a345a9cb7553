import { mean, quantile } from "../lib/stats";
import type { Span } from "./trace";

/** Milliseconds of one request, by segment name, in the order the segments happened. */
export type Segments = [name: string, ms: number][];

/**
 * Splits one request, from the client's emit (`sent`) to its ack (`acked`), into what the
 * server's traced calls account for: the time before the first call (socket in, payload check,
 * the queue, reading the live workspace and comparing it with what was written), each file
 * write, each git process (starting it, with the event loop blocked, then running it), the
 * JavaScript between calls (status parsing follows `git status`), and the time from the last
 * call to the ack at the client (branch list, the gitStatus broadcast, the ack on the wire).
 * Overlapping calls count once, so the segments add up to the whole.
 */
export function segmentsOf(sent: number, acked: number, spans: readonly Span[]): Segments {
  const segments: Segments = [];
  const add = (name: string, ms: number) => {
    const same = segments.find(([n]) => n === name);
    if (same) same[1] += ms;
    else segments.push([name, ms]);
  };
  let at = sent;
  let previous = "request sent";
  // Calls made concurrently (writes in parallel) count once: each adds what it runs past `at`.
  for (const span of spans) {
    if (span.end <= at) continue;
    const from = Math.max(span.start, at);
    if (span.start > at)
      add(previous === "request sent" ? "socket in → first call" : `JS after ${previous}`, span.start - at);
    if (span.kind === "fs") {
      add("worktree write (fs)", span.end - from);
      previous = "worktree write";
    } else {
      add(`git ${span.label}: fork + exec (loop blocked)`, Math.max(0, span.spawned - from));
      add(`git ${span.label}: running`, span.end - Math.max(span.spawned, from));
      previous = `git ${span.label}`;
    }
    at = span.end;
  }
  add(spans.length ? "last call → ack at client" : "socket in → ack at client", acked - at);
  return segments;
}

/** One row per segment: its median and mean over requests (means add up to the mean total). */
export interface SegmentRow {
  name: string;
  p50: number;
  mean: number;
}

export function summarizeSegments(requests: readonly Segments[]): SegmentRow[] {
  const names: string[] = [];
  for (const segments of requests) for (const [name] of segments) if (!names.includes(name)) names.push(name);
  return names.map((name) => {
    const values = requests.map((s) => s.find(([n]) => n === name)?.[1] ?? 0);
    return { name, p50: quantile(values, 0.5), mean: mean(values) };
  });
}
