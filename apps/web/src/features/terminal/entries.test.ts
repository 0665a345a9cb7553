import { describe, expect, it } from "vitest";
import { applyEntries, displayText, MAX_SHOWN_ENTRIES, mergeHistory, plainText } from "./entries";

describe("applyEntries", () => {
  it("appends with fresh ids, and a clear entry empties what came before it", () => {
    const first = applyEntries(
      [],
      [
        { type: "input", content: "$ run" },
        { type: "output", content: "hi\n" },
      ],
      1,
    );
    expect(first.entries.map((e) => e.id)).toEqual([1, 2]);
    expect(first.nextId).toBe(3);
    const cleared = applyEntries(
      first.entries,
      [
        { type: "clear", content: "" },
        { type: "error", content: "boom" },
      ],
      first.nextId,
    );
    expect(cleared.entries).toEqual([{ id: 3, type: "error", content: "boom" }]);
  });

  it("keeps only the newest entries", () => {
    const many = Array.from({ length: MAX_SHOWN_ENTRIES + 5 }, (_, i) => ({
      type: "output" as const,
      content: `${i}\n`,
    }));
    const { entries } = applyEntries([], many, 1);
    expect(entries).toHaveLength(MAX_SHOWN_ENTRIES);
    expect(entries[0]?.content).toBe("5\n");
  });

  it("continues an output line cut into pieces, but never across types, input or a finished line", () => {
    const { entries } = applyEntries(
      [],
      [
        { type: "output", content: "name? ", seq: 1 },
        { type: "input", content: "Ada", seq: 2 },
        { type: "output", content: "42", seq: 3 },
        { type: "output", content: " 4\n", seq: 4 },
        { type: "output", content: "next\n", seq: 5 },
        { type: "error", content: "Trace", seq: 6 },
        { type: "error", content: "back\n", seq: 7 },
      ],
      1,
    );
    expect(entries.map(({ type, content, seq }) => ({ type, content, seq }))).toEqual([
      { type: "output", content: "name? ", seq: 1 },
      { type: "input", content: "Ada", seq: 2 },
      { type: "output", content: "42 4\n", seq: 4 },
      { type: "output", content: "next\n", seq: 5 },
      { type: "error", content: "Traceback\n", seq: 7 },
    ]);
  });
});

describe("raw output", () => {
  it("keeps a program's escape sequences and carriage returns for the terminal emulator, and shows typed input as text", () => {
    const { entries } = applyEntries(
      [],
      [
        { type: "output", content: "\u001b[31mred\u001b[0m 10%\r" },
        { type: "output", content: "\u001b[2K 20%\n" },
        { type: "input", content: "a\u001b[1mb" },
      ],
      1,
    );
    expect(entries.map((e) => e.content)).toEqual(["\u001b[31mred\u001b[0m 10%\r\u001b[2K 20%\n", "a␛[1mb"]);
  });
});

describe("history and broadcasts that raced", () => {
  const out = (seq: number) => ({ type: "output" as const, content: `line ${seq}\n`, seq });

  it("skips a broadcast entry the history already showed", () => {
    const history = mergeHistory([], [out(1), out(2)], 1, 1);
    const after = applyEntries(history.entries, [out(2), out(3)], history.nextId, history.lastSeq);
    expect(after.entries.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(after.lastSeq).toBe(3);
  });

  it("keeps a broadcast entry that arrived before an older history", () => {
    // Asked for the history at id 1; entry 3 was broadcast before the history (read up to 2) came.
    const early = applyEntries([], [out(3)], 1);
    const merged = mergeHistory(early.entries, [out(1), out(2)], early.nextId, 1);
    expect(merged.entries.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(merged.lastSeq).toBe(3);
  });

  it("drops what was shown before the history was asked for (a clear while offline)", () => {
    const before = applyEntries([], [out(7), out(8)], 1);
    const merged = mergeHistory(before.entries, [], before.nextId, before.nextId);
    expect(merged.entries).toEqual([]);
  });
});

describe("displayText", () => {
  it("shows escape sequences and other control characters as visible symbols", () => {
    expect(displayText("\u001b[31mred\u001b[0m")).toBe("␛[31mred␛[0m");
    expect(displayText("a\u0007b\u007fc")).toBe("a␇b␡c");
    expect(displayText("bar\rfoo")).toBe("bar␍foo");
  });

  it("keeps tabs and newlines, and turns CRLF into a newline", () => {
    expect(displayText("a\tb\r\nc\n")).toBe("a\tb\nc\n");
    expect(displayText("<b>not html</b>")).toBe("<b>not html</b>");
  });
});

describe("plainText", () => {
  it("drops escape sequences and keeps what a carriage return leaves on each line", () => {
    expect(plainText("\u001b[1;31merror\u001b[0m: x\r\n")).toBe("error: x\n");
    expect(plainText("10%\r20%\r\u001b[2K100%\ndone")).toBe("100%\ndone");
    expect(plainText("\u001b]8;;http://x\u0007link\u001b]8;;\u0007 a\u0007b")).toBe("link ab");
  });
});
