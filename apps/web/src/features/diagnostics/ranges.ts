import type { Diagnostic } from "@ensemble/protocol";

/** A diagnostic placed on a file's text as Monaco draws it (lines and columns from 1, end exclusive). */
export interface MarkerRange {
  severity: Diagnostic["severity"];
  message: string;
  startLineNumber: number;
  startColumn: number;
  endLineNumber: number;
  endColumn: number;
}

/** What a range needs of the file's text now. */
export interface TextLines {
  readonly lineCount: number;
  line(lineNumber: number): string;
}

const WORD = /[\p{L}\p{N}_$]/u;

/**
 * Where `path`'s diagnostics go on its text: at the column, over the word there (one
 * character if none), or over the whole line's code when the tool gave no column. A line
 * past the end of the file (it was shortened since the run) is left out.
 */
export function markerRanges(
  diagnostics: readonly Diagnostic[],
  path: string,
  text: TextLines,
): MarkerRange[] {
  return diagnostics.flatMap((d) => {
    if (d.path !== path || d.line > text.lineCount) return [];
    const line = text.line(d.line);
    const end = line.length + 1;
    const base = { severity: d.severity, message: d.message, startLineNumber: d.line };
    if (d.column === undefined) {
      const first = line.search(/\S/) + 1 || 1;
      return [{ ...base, startColumn: first, endLineNumber: d.line, endColumn: Math.max(end, first + 1) }];
    }
    const start = Math.min(d.column, end);
    if (d.endLine !== undefined && d.endColumn !== undefined && d.endLine >= d.line) {
      return [{ ...base, startColumn: start, endLineNumber: d.endLine, endColumn: d.endColumn }];
    }
    let stop = start;
    while (stop <= line.length && WORD.test(line[stop - 1] ?? "")) stop += 1;
    return [{ ...base, startColumn: start, endLineNumber: d.line, endColumn: Math.max(stop, start + 1) }];
  });
}
