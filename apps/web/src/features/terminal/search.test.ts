import { afterEach, describe, expect, it } from "vitest";
import { endTerminalSearch, findInTerminal, registerSearchable, type SearchableBlock } from "./search";

/** A block at `position` in the log whose rows are `lines`; it selects one match at a time. */
function block(position: number, lines: string[]) {
  let selected: number | null = null;
  const element = {
    position,
    compareDocumentPosition: (other: { position: number }) => (other.position > position ? 4 : 2),
  } as unknown as HTMLElement;
  const searchable: SearchableBlock = {
    element,
    find(query, direction, fromEdge) {
      const hits = lines.flatMap((line, i) => (line.includes(query) ? [i] : []));
      const from = fromEdge || selected === null ? null : selected;
      const next =
        direction === "next"
          ? hits.find((i) => from === null || i > from)
          : hits.findLast((i) => from === null || i < from);
      selected = next ?? null;
      return next !== undefined;
    },
    clear: () => {
      selected = null;
    },
  };
  return { searchable, selected: () => selected };
}

const unregister: (() => void)[] = [];
afterEach(() => {
  endTerminalSearch();
  for (const done of unregister.splice(0)) done();
});

describe("findInTerminal", () => {
  it("goes through every block in document order, then round to the first", () => {
    const second = block(2, ["b ok", "nothing", "c ok"]);
    const first = block(1, ["a ok"]);
    const third = block(3, ["none"]);
    for (const b of [second, first, third]) unregister.push(registerSearchable(b.searchable));

    expect(findInTerminal("ok", "next")).toBe(true);
    expect([first.selected(), second.selected()]).toEqual([0, null]);
    expect(findInTerminal("ok", "next")).toBe(true);
    expect([first.selected(), second.selected()]).toEqual([null, 0]);
    expect(findInTerminal("ok", "next")).toBe(true);
    expect(second.selected()).toBe(2);
    expect(findInTerminal("ok", "next")).toBe(true);
    expect([first.selected(), second.selected()]).toEqual([0, null]);
  });

  it("goes backwards with previous, and says when nothing matches", () => {
    const first = block(1, ["x one"]);
    const second = block(2, ["x two", "x three"]);
    for (const b of [first, second]) unregister.push(registerSearchable(b.searchable));

    expect(findInTerminal("x", "previous")).toBe(true);
    expect(second.selected()).toBe(1);
    expect(findInTerminal("x", "previous")).toBe(true);
    expect(second.selected()).toBe(0);
    expect(findInTerminal("x", "previous")).toBe(true);
    expect([first.selected(), second.selected()]).toEqual([0, null]);
    expect(findInTerminal("nothing like it", "next")).toBe(false);
    expect(findInTerminal("", "next")).toBe(false);
  });

  it("forgets a block that is gone", () => {
    const only = block(1, ["here"]);
    const done = registerSearchable(only.searchable);
    expect(findInTerminal("here", "next")).toBe(true);
    done();
    expect(findInTerminal("here", "next")).toBe(false);
  });
});
