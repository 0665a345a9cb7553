import { describe, expect, it } from "vitest";
import { TYPING_BUDGET_CHARS, TYPING_MS_PER_CHAR, typedLines, typedPrefix, typingProgress } from "./typing";

describe("typingProgress", () => {
  it("types one character every 25 ms", () => {
    expect(typingProgress([10], 0)).toEqual({ isDone: false, index: 0, chars: 0 });
    expect(typingProgress([10], 24)).toEqual({ isDone: false, index: 0, chars: 0 });
    expect(typingProgress([10], 25)).toEqual({ isDone: false, index: 0, chars: 1 });
    expect(typingProgress([10], 9 * 25)).toEqual({ isDone: false, index: 0, chars: 9 });
    expect(typingProgress([10], 10 * 25).isDone).toBe(true);
  });

  it("types entries one after another, input lines (length 0) at once", () => {
    expect(typingProgress([0, 5, 5], 0)).toEqual({ isDone: false, index: 1, chars: 0 });
    expect(typingProgress([0, 5, 5], 7 * 25)).toEqual({ isDone: false, index: 2, chars: 2 });
    expect(typingProgress([0, 5, 5], 10 * 25).isDone).toBe(true);
    expect(typingProgress([], 0).isDone).toBe(true);
  });

  it("shows the rest of a long output at once when the budget is spent", () => {
    const huge = [1_000_000];
    const budgetMs = TYPING_BUDGET_CHARS * TYPING_MS_PER_CHAR;
    expect(budgetMs).toBeLessThanOrEqual(2000);
    expect(typingProgress(huge, budgetMs - 1)).toEqual({
      isDone: false,
      index: 0,
      chars: TYPING_BUDGET_CHARS - 1,
    });
    expect(typingProgress(huge, budgetMs)).toEqual({ isDone: true, index: 1, chars: 0 });
    // The budget is for the whole batch, however many entries it holds.
    expect(typingProgress([60, 60, 60], budgetMs).isDone).toBe(true);
  });

  it("treats a clock that went backwards as the start", () => {
    expect(typingProgress([3], -100)).toEqual({ isDone: false, index: 0, chars: 0 });
  });
});

describe("typedPrefix", () => {
  it("cuts at a character count", () => {
    expect(typedPrefix("hello", 0)).toBe("");
    expect(typedPrefix("hello", 3)).toBe("hel");
    expect(typedPrefix("hello", 99)).toBe("hello");
  });

  it("never ends inside a surrogate pair", () => {
    expect(typedPrefix("a😀b", 2)).toBe("a");
    expect(typedPrefix("a😀b", 3)).toBe("a😀");
  });
});

describe("typedLines", () => {
  const entries = [
    { id: 1, type: "output" as const, content: "old output" },
    { id: 2, type: "input" as const, content: "$ run" },
    { id: 3, type: "output" as const, content: "abcdef" },
    { id: 4, type: "error" as const, content: "boom" },
  ];

  it("shows earlier entries whole, types the batch in order and hides what is not reached", () => {
    const batch = { fromId: 2, startedAt: 0 };
    const { lines, isDone } = typedLines(entries, batch, 3 * TYPING_MS_PER_CHAR);
    expect(isDone).toBe(false);
    expect(lines.map((l) => [l.id, l.text, l.isTyping])).toEqual([
      [1, "old output", false],
      [2, "$ run", false],
      [3, "abc", true],
    ]);
  });

  it("shows everything once the batch is typed, and without a batch", () => {
    const batch = { fromId: 2, startedAt: 0 };
    expect(typedLines(entries, batch, 10 * TYPING_MS_PER_CHAR).lines.map((l) => l.text)).toEqual([
      "old output",
      "$ run",
      "abcdef",
      "boom",
    ]);
    expect(typedLines(entries, null, 0).lines).toHaveLength(4);
    // A batch whose entries were cleared away is over.
    expect(typedLines(entries, { fromId: 9, startedAt: 0 }, 0).isDone).toBe(true);
  });
});
