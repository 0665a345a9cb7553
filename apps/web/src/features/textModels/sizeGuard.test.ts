import { WORKSPACE_LIMITS, WORKSPACE_MESSAGES } from "@ensemble/protocol";
import { describe, expect, it } from "vitest";
import * as Y from "yjs";
import { revertEdits, sizeProblem } from "./sizeGuard";

const textOf = (content: string) => {
  const text = new Y.Doc().getText("f");
  text.insert(0, content);
  return text;
};

describe("sizeProblem", () => {
  const limit = WORKSPACE_LIMITS.maxFileBytes;

  it("lets a file grow to its limit exactly, and not one byte past it", () => {
    const text = textOf("a".repeat(limit - 2));
    expect(sizeProblem(text, [{ rangeOffset: 0, rangeLength: 0, text: "bb" }])).toBeUndefined();
    expect(sizeProblem(text, [{ rangeOffset: 0, rangeLength: 0, text: "bbb" }])).toBe(
      WORKSPACE_MESSAGES.fileTooLarge,
    );
  });

  it("counts UTF-8 bytes, and what a replacement removes", () => {
    const text = textOf("a".repeat(limit - 4));
    // "é" is 2 bytes: 3 of them are 6, one past the limit… unless 2 characters go.
    const accents = { rangeOffset: 10, rangeLength: 0, text: "ééé" };
    expect(sizeProblem(text, [accents])).toBe(WORKSPACE_MESSAGES.fileTooLarge);
    expect(sizeProblem(text, [{ ...accents, rangeLength: 2 }])).toBeUndefined();
  });

  it("lets one paste fill an empty file to its limit (it leaves in parts)", () => {
    const text = textOf("");
    expect(sizeProblem(text, [{ rangeOffset: 0, rangeLength: 0, text: "a".repeat(limit) }])).toBeUndefined();
  });

  it("never refuses a deletion, even of a file over its limit", () => {
    const text = textOf("a".repeat(limit + 10));
    expect(sizeProblem(text, [{ rangeOffset: 0, rangeLength: 5, text: "" }])).toBeUndefined();
  });
});

describe("revertEdits", () => {
  it("takes the text after several changes back to the text before them", () => {
    const before = "hello world, again";
    const changes = [
      { rangeOffset: 13, rangeLength: 5, text: "once more" },
      { rangeOffset: 0, rangeLength: 5, text: "hi" },
    ];
    let after = before;
    for (const c of [...changes].sort((a, b) => b.rangeOffset - a.rangeOffset))
      after = after.slice(0, c.rangeOffset) + c.text + after.slice(c.rangeOffset + c.rangeLength);
    expect(after).toBe("hi world, once more");
    let reverted = after;
    for (const e of revertEdits(before, changes).reverse())
      reverted = reverted.slice(0, e.start) + e.text + reverted.slice(e.end);
    expect(reverted).toBe(before);
  });
});
