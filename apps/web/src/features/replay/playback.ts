import type { ReplayRun } from "@ensemble/protocol";

/** Playback speeds offered, as multiples of real time. */
export const REPLAY_SPEEDS = [1, 2, 5, 10, 50] as const;

/** How often playback moves the slider (ms of wall time). */
export const PLAYBACK_TICK_MS = 250;

/** Where playback is after `elapsedMs` of wall time at `speed`, stopping at `end`. */
export function advance(at: number, elapsedMs: number, speed: number, end: number): number {
  return Math.min(end, at + elapsedMs * speed);
}

/** A run of text with its author (null: the server). */
export interface Segment {
  text: string;
  author: string | null;
}

/**
 * Cuts `content` into the author runs `runs` describe, naming each author from `authors` (the
 * frame's). Runs count UTF-16 code units, as Yjs and JavaScript strings do; text the runs do not
 * cover (should they fall short) is unattributed.
 */
export function segmentsOf(
  content: string,
  runs: readonly ReplayRun[],
  authors: readonly (string | null)[],
): Segment[] {
  const segments: Segment[] = [];
  let offset = 0;
  for (const [author, length] of runs) {
    if (offset >= content.length) break;
    segments.push({ text: content.slice(offset, offset + length), author: authors[author] ?? null });
    offset += length;
  }
  if (offset < content.length) segments.push({ text: content.slice(offset), author: null });
  return segments;
}

/** A moment as the slider's label shows it: the time of day, to the second. */
export function formatMoment(at: number): string {
  return new Date(at).toLocaleTimeString(undefined, {
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });
}
