import type { WorkspacePaths } from "./paths";
import type { Diagnostic } from "./schema";

/** Reads one tool's output into diagnostics on workspace files (others are dropped). */
export type DiagnosticParser = (text: string, paths: WorkspacePaths) => Diagnostic[];

/**
 * A line's characters a parser reads: the place and the start of the message are at the
 * start of every line a tool prints, and the bound keeps each pattern's work per line small
 * on a hostile program's output (see MAX_TEXT).
 */
const MAX_LINE = 2000;

// biome-ignore lint/suspicious/noControlCharactersInRegex: removing ANSI escapes is the point
const ANSI_ESCAPE = /\u001b\[[0-9;]*[A-Za-z]/g;

/** The output's lines, without carriage returns or colour codes (compilers may print them), each at most MAX_LINE long. */
export function linesOf(text: string): string[] {
  return text
    .replace(ANSI_ESCAPE, "")
    .split(/\r?\n/)
    .map((line) => line.slice(0, MAX_LINE));
}

/** A 1-based number from a match, or undefined when absent or not positive. */
export function positive(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number.parseInt(value, 10);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** A diagnostic, its column left out when unknown (exactOptionalPropertyTypes). */
export function diagnostic(
  path: string,
  line: number,
  column: number | undefined,
  severity: Diagnostic["severity"],
  message: string,
): Diagnostic {
  const base = { path, line, severity, message: message.trim() };
  return column === undefined ? base : { ...base, column };
}

/** The 1-based column of a caret line (`    ^`) under a source line, or undefined. */
export function caretColumn(line: string | undefined): number | undefined {
  if (line === undefined || !/^\s*\^[\^~]*\s*$/.test(line)) return undefined;
  return line.indexOf("^") + 1;
}
