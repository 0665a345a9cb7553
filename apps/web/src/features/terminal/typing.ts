import type { ShownEntry } from "./entries";
import type { TypingBatch } from "./store";

/** The spec's typing speed for terminal output. */
export const TYPING_MS_PER_CHAR = 25;

/**
 * How many characters of a batch are typed before the rest appears at once: 80 characters
 * is 2 s, so a long output never takes minutes to show.
 */
export const TYPING_BUDGET_CHARS = 80;

/** Where the typing of one batch of entries stands after `elapsedMs`. */
export interface TypingProgress {
  isDone: boolean;
  /** Entries before `index` are shown whole; entries after it are not shown yet. */
  index: number;
  /** Characters shown of the entry at `index`. */
  chars: number;
}

/**
 * The progress of typing entries of `lengths` characters one after another, 25 ms per
 * character; once the batch has typed its budget (or reached its end) everything shows.
 * A length of 0 (an input line) shows at once.
 */
export function typingProgress(
  lengths: readonly number[],
  elapsedMs: number,
  msPerChar = TYPING_MS_PER_CHAR,
  budgetChars = TYPING_BUDGET_CHARS,
): TypingProgress {
  const all = { isDone: true, index: lengths.length, chars: 0 };
  let typed = Math.floor(Math.max(0, elapsedMs) / msPerChar);
  if (typed >= budgetChars) return all;
  for (let index = 0; index < lengths.length; index++) {
    const length = lengths[index] ?? 0;
    if (typed < length) return { isDone: false, index, chars: typed };
    typed -= length;
  }
  return all;
}

/**
 * The first `chars` UTF-16 units of `text`, never ending inside a surrogate pair (so a
 * half-typed emoji shows nothing rather than a broken glyph).
 */
export function typedPrefix(text: string, chars: number): string {
  if (chars >= text.length) return text;
  if (chars <= 0) return "";
  const last = text.charCodeAt(chars - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? chars - 1 : chars;
  return text.slice(0, end);
}

/** An entry as it is on screen now: maybe partly typed, maybe not yet shown. */
export interface TerminalLine extends ShownEntry {
  text: string;
  isTyping: boolean;
}

/** The lines of `entries` while `batch` types out, `elapsedMs` after it began. */
export function typedLines(
  entries: readonly ShownEntry[],
  batch: TypingBatch | null,
  elapsedMs: number,
): { lines: TerminalLine[]; isDone: boolean } {
  const whole = (e: ShownEntry): TerminalLine => ({ ...e, text: e.content, isTyping: false });
  if (!batch) return { lines: entries.map(whole), isDone: true };
  const first = entries.findIndex((e) => e.id >= batch.fromId);
  if (first === -1) return { lines: entries.map(whole), isDone: true };
  const pending = entries.slice(first);
  const progress = typingProgress(
    pending.map((e) => (e.type === "input" ? 0 : e.content.length)),
    elapsedMs,
  );
  const lines = entries.slice(0, first).map(whole);
  pending.forEach((entry, i) => {
    if (progress.isDone || i < progress.index) lines.push(whole(entry));
    else if (i === progress.index)
      lines.push({ ...entry, text: typedPrefix(entry.content, progress.chars), isTyping: true });
  });
  return { lines, isDone: progress.isDone };
}
