import { EXECUTION_LIMITS, type TerminalEntry } from "@ensemble/protocol";

/**
 * A terminal entry as the panel shows it: with a stable key, and the server's `seq` if stored.
 * Output and error content is kept as the program wrote it (escape sequences and all): the
 * terminal emulator renders it; typed input is display text (see displayText).
 */
export interface ShownEntry {
  id: number;
  type: Exclude<TerminalEntry["type"], "clear">;
  content: string;
  seq?: number;
}

/** Most entries kept in the browser, the same bound the server keeps per session. */
export const MAX_SHOWN_ENTRIES = EXECUTION_LIMITS.terminalHistoryEntries;

/**
 * Appends `incoming` to `shown` as display text: a `clear` entry empties what came before it,
 * an entry whose `seq` is not above `lastSeq` was already shown and is skipped, and only the
 * newest MAX_SHOWN_ENTRIES are kept. Ids continue from `nextId`. A live run's output comes in
 * pieces cut anywhere, so output (or error) text continues the shown entry of its type that
 * has not ended its line yet, as on a terminal.
 */
export function applyEntries(
  shown: readonly ShownEntry[],
  incoming: readonly TerminalEntry[],
  nextId: number,
  lastSeq = 0,
): { entries: ShownEntry[]; nextId: number; lastSeq: number } {
  let entries = [...shown];
  let id = nextId;
  let seen = lastSeq;
  for (const entry of incoming) {
    if (entry.seq !== undefined) {
      if (entry.seq <= seen) continue;
      seen = entry.seq;
    }
    const last = entries.at(-1);
    if (entry.type === "clear") entries = [];
    else if (entry.type !== "input" && last?.type === entry.type && !last.content.endsWith("\n")) {
      entries[entries.length - 1] = {
        ...last,
        content: last.content + entry.content,
        ...(entry.seq !== undefined ? { seq: entry.seq } : {}),
      };
    } else
      entries.push({
        id: id++,
        type: entry.type,
        content: entry.type === "input" ? displayText(entry.content) : entry.content,
        ...(entry.seq !== undefined ? { seq: entry.seq } : {}),
      });
  }
  if (entries.length > MAX_SHOWN_ENTRIES) entries = entries.slice(-MAX_SHOWN_ENTRIES);
  return { entries, nextId: id, lastSeq: seen };
}

/**
 * The session's history in place of what is shown. Broadcast entries that arrived after the
 * history was asked for (`askedAt`, the first id given then) and are newer than it are kept:
 * the server read the history before it stored them.
 */
export function mergeHistory(
  shown: readonly ShownEntry[],
  history: readonly TerminalEntry[],
  nextId: number,
  askedAt: number,
): { entries: ShownEntry[]; nextId: number; lastSeq: number } {
  const merged = applyEntries([], history, nextId);
  const newer = shown.filter((e) => e.id >= askedAt && e.seq !== undefined && e.seq > merged.lastSeq);
  const entries = [...merged.entries, ...newer].slice(-MAX_SHOWN_ENTRIES);
  const lastSeq = Math.max(merged.lastSeq, ...newer.map((e) => e.seq ?? 0));
  return { entries, nextId: merged.nextId, lastSeq };
}

// C0 controls but tab and newline, and DEL: shown as their Unicode control pictures.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/**
 * A typed line as plain visible text: CRLF becomes a newline, and other control
 * characters (an ANSI escape's ESC, a bell, a lone CR) become visible symbols such as ␛,
 * so no escape sequence can move, colour or hide anything.
 */
export function displayText(content: string): string {
  return content
    .replaceAll("\r\n", "\n")
    .replace(CONTROL, (c) => String.fromCharCode(c === "\u007f" ? 0x2421 : 0x2400 + c.charCodeAt(0)));
}

// CSI (ESC [ ... final), OSC (ESC ] ... BEL or ESC \\) and two-character escapes.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching escape sequences is the point
const ESCAPE = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])/g;

/**
 * Program output without its escape sequences, each line as a terminal would leave it after
 * carriage returns (the text after the last one that was followed by more): what shows while
 * the terminal emulator loads.
 */
export function plainText(content: string): string {
  return content
    .replaceAll("\r\n", "\n")
    .replace(ESCAPE, "")
    .split("\n")
    .map((line) => line.split("\r").findLast((part) => part !== "") ?? "")
    .join("\n")
    .replace(CONTROL, "");
}
