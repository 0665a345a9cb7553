import { describe, expect, it } from "vitest";
import { groupLines } from "./blocks";
import type { TerminalLine } from "./typing";

const line = (id: number, type: TerminalLine["type"], text: string, isTyping = false): TerminalLine => ({
  id,
  type,
  content: text,
  text,
  isTyping,
});

describe("groupLines", () => {
  it("keeps input lines alone and joins consecutive output of one type into a block", () => {
    const items = groupLines([
      line(1, "input", "$ run"),
      line(2, "output", "\u001b[32mcount 1\n"),
      line(3, "output", "count 2\u001b[0m\n"),
      line(4, "error", "warning\n"),
      line(5, "output", "done"),
      line(6, "input", "Ada"),
      line(7, "output", "hello Ada\n", true),
    ]);
    expect(items).toEqual([
      { kind: "line", key: 1, line: line(1, "input", "$ run") },
      {
        kind: "block",
        key: 2,
        type: "output",
        text: "\u001b[32mcount 1\ncount 2\u001b[0m\n",
        isTyping: false,
        isLive: true,
      },
      { kind: "block", key: 4, type: "error", text: "warning\n", isTyping: false, isLive: true },
      { kind: "block", key: 5, type: "output", text: "done", isTyping: false, isLive: true },
      { kind: "line", key: 6, line: line(6, "input", "Ada") },
      { kind: "block", key: 7, type: "output", text: "hello Ada\n", isTyping: true, isLive: true },
    ]);
  });

  it("starts an entry that follows an unended line of its type on a line of its own", () => {
    const [block] = groupLines([line(1, "error", "Stopped by Ann."), line(2, "error", "again")]);
    expect(block).toMatchObject({ kind: "block", text: "Stopped by Ann.\nagain" });
  });

  it("renders only the newest blocks with the emulator", () => {
    const items = groupLines(
      [line(1, "output", "a\n"), line(2, "input", "$ x"), line(3, "error", "b"), line(4, "output", "c")],
      2,
    );
    expect(items.map((i) => (i.kind === "block" ? i.isLive : null))).toEqual([false, null, true, true]);
  });
});
