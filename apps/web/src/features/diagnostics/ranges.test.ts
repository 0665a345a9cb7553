import type { Diagnostic } from "@ensemble/protocol";
import { describe, expect, it } from "vitest";
import { markerRanges } from "./ranges";

const text = (source: string) => {
  const lines = source.split("\n");
  return { lineCount: lines.length, line: (n: number) => lines[n - 1] ?? "" };
};

const error = (fields: Partial<Diagnostic>): Diagnostic => ({
  path: "src/main.py",
  line: 1,
  severity: "error",
  message: "boom",
  ...fields,
});

describe("markerRanges", () => {
  const source = 'print("start")\n    return "hi " + nme\n\nx = 1';

  it("underlines the word at the column", () => {
    expect(markerRanges([error({ line: 2, column: 20 })], "src/main.py", text(source))).toEqual([
      {
        severity: "error",
        message: "boom",
        startLineNumber: 2,
        startColumn: 20,
        endLineNumber: 2,
        endColumn: 23,
      },
    ]);
  });

  it("underlines one character where no word starts", () => {
    const [range] = markerRanges([error({ line: 2, column: 17 })], "src/main.py", text(source));
    expect(range).toMatchObject({ startColumn: 17, endColumn: 18 });
  });

  it("underlines the line's code when the tool gave no column", () => {
    const [range] = markerRanges([error({ line: 2 })], "src/main.py", text(source));
    expect(range).toMatchObject({ startLineNumber: 2, startColumn: 5, endLineNumber: 2, endColumn: 23 });
  });

  it("keeps a range the tool gave", () => {
    const [range] = markerRanges(
      [error({ line: 1, column: 1, endLine: 2, endColumn: 3 })],
      "src/main.py",
      text(source),
    );
    expect(range).toMatchObject({ startLineNumber: 1, startColumn: 1, endLineNumber: 2, endColumn: 3 });
  });

  it("marks something on an empty line, and clamps a column past the line's end", () => {
    expect(markerRanges([error({ line: 3 })], "src/main.py", text(source))[0]).toMatchObject({
      startColumn: 1,
      endColumn: 2,
    });
    expect(markerRanges([error({ line: 4, column: 40 })], "src/main.py", text(source))[0]).toMatchObject({
      startColumn: 6,
      endColumn: 7,
    });
  });

  it("leaves out other files and lines past the end of this one", () => {
    expect(
      markerRanges([error({ path: "src/other.py" }), error({ line: 9 })], "src/main.py", text(source)),
    ).toEqual([]);
  });
});
