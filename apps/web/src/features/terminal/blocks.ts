import type { TerminalLine } from "./typing";

/** What the terminal log shows, in order: typed lines, and blocks of program output. */
export type TerminalItem =
  | { kind: "line"; key: number; line: TerminalLine }
  | {
      kind: "block";
      key: number;
      type: "output" | "error";
      /** The block's entries as one stream for the terminal emulator, escape sequences and all. */
      text: string;
      isTyping: boolean;
      /** One of the newest `liveBlocks`: a terminal emulator renders it, else plain text. */
      isLive: boolean;
    };

/**
 * How many of the newest output blocks a terminal emulator renders; older ones show as plain
 * text. Each emulator measures its glyphs and rows on creation (forced layouts): 80 of them
 * cost a late joiner 2.5 s, 24 half a second. The rule reads the shared entries only, so
 * everyone still sees the same screen.
 */
export const LIVE_BLOCKS = 24;

/**
 * The lines as the log shows them: each input line alone (the spec's typed command lines),
 * and each run of consecutive output (or error) entries as one block a terminal emulator
 * renders, so colours and carriage returns that span the pieces of a live run's output keep
 * their meaning. An entry that did not end its line still starts a new one in its block, as
 * it did in the plain log. A block keeps the key of its first entry while it grows.
 */
export function groupLines(lines: readonly TerminalLine[], liveBlocks = LIVE_BLOCKS): TerminalItem[] {
  const items: TerminalItem[] = [];
  for (const line of lines) {
    if (line.type === "input") {
      items.push({ kind: "line", key: line.id, line });
      continue;
    }
    const last = items.at(-1);
    if (last?.kind === "block" && last.type === line.type) {
      const joint = last.text === "" || last.text.endsWith("\n") ? "" : "\n";
      last.text += joint + line.text;
      last.isTyping ||= line.isTyping;
    } else
      items.push({
        kind: "block",
        key: line.id,
        type: line.type,
        text: line.text,
        isTyping: line.isTyping,
        isLive: true,
      });
  }
  let live = liveBlocks;
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item?.kind === "block") item.isLive = live-- > 0;
  }
  return items;
}
