import { describe, expect, it } from "vitest";
import { applyEdits, offsetOf } from "./edits";

const edit = (line: number, from: number, toLine: number, to: number, newText: string) => ({
  range: { start: { line, character: from }, end: { line: toLine, character: to } },
  newText,
});

describe("applyEdits", () => {
  it("applies a server's edits, given on the original text, in any order", () => {
    const text = "int main(){\nreturn 0;\n}\n";
    const formatted = applyEdits(text, [edit(1, 0, 1, 0, "  "), edit(0, 10, 0, 10, " ")]);
    expect(formatted).toBe("int main() {\n  return 0;\n}\n");
  });

  it("joins lines, clamps past the ends, and refuses overlapping edits", () => {
    expect(applyEdits("a\nb\n", [edit(0, 1, 1, 0, " ")])).toBe("a b\n");
    expect(offsetOf("ab\ncd", { line: 0, character: 99 })).toBe(2);
    expect(offsetOf("ab\ncd", { line: 9, character: 0 })).toBe(5);
    expect(applyEdits("abcdef", [edit(0, 0, 0, 3, "x"), edit(0, 2, 0, 4, "y")])).toBeUndefined();
  });
});
