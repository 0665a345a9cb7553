import type { TextEdit, TextPosition } from "@ensemble/protocol";

/** The offset of a zero-based line and UTF-16 column in `text` (clamped to the text). */
export function offsetOf(text: string, { line, character }: TextPosition): number {
  let offset = 0;
  for (let row = 0; row < line; row += 1) {
    const end = text.indexOf("\n", offset);
    if (end < 0) return text.length;
    offset = end + 1;
  }
  const lineEnd = text.indexOf("\n", offset);
  return Math.min(offset + character, lineEnd < 0 ? text.length : lineEnd);
}

/**
 * `text` with a server's edits applied (LSP: every range is on the original text, none
 * overlap); undefined when two edits overlap, which no well-behaved server sends.
 */
export function applyEdits(text: string, edits: readonly TextEdit[]): string | undefined {
  const spans = edits
    .map((edit) => ({
      from: offsetOf(text, edit.range.start),
      to: offsetOf(text, edit.range.end),
      text: edit.newText,
    }))
    .sort((a, b) => a.from - b.from || a.to - b.to);
  let result = "";
  let at = 0;
  for (const span of spans) {
    if (span.from < at || span.to < span.from) return undefined;
    result += text.slice(at, span.from) + span.text;
    at = span.to;
  }
  return result + text.slice(at);
}
