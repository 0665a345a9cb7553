import { describe, expect, it } from "vitest";
import * as Y from "yjs";
import { applyFormat } from "./applyFormat";
import { minimalEdits, writeEdits } from "./minimalEdits";

const BEFORE = "function  add(a,b){\nreturn a+b}\n\n// the caller\nconst total = add(1, 2);\n";
const AFTER = "function add(a, b) {\n  return a + b;\n}\n\n// the caller\nconst total = add(1, 2);\n";

/** A document holding `text`, as a formatter's tab sees it. */
function fileWith(text: string) {
  const doc = new Y.Doc();
  const ytext = doc.getText("file");
  ytext.insert(0, text);
  return { doc, ytext };
}

/** Formats `ytext` as Format Document does: one transaction, `origin` the tab's binding. */
function format(ytext: Y.Text, after: string, origin: unknown) {
  const before = ytext.toString();
  ytext.doc?.transact(() => writeEdits(ytext, minimalEdits(before, after)), origin);
}

describe("minimalEdits", () => {
  it("turns the text into the formatted one", () => {
    const { ytext } = fileWith(BEFORE);
    format(ytext, AFTER, "binding");
    expect(ytext.toString()).toBe(AFTER);
  });

  it("changes only the runs that differ (the unchanged tail is not rewritten)", () => {
    const edits = minimalEdits(BEFORE, AFTER);
    const tail = BEFORE.indexOf("// the caller");
    expect(edits.every((edit) => edit.end <= tail)).toBe(true);
    // Formatting only added here, but for one of the two spaces after "function": no word
    // is deleted and typed again.
    expect(edits.map((e) => BEFORE.slice(e.start, e.end)).join("")).toBe(" ");
  });

  it("answers nothing for a text that is formatted already", () => {
    expect(minimalEdits(AFTER, AFTER)).toEqual([]);
  });

  it("keeps another person's caret on its character outside the changed runs", () => {
    const { doc, ytext } = fileWith(BEFORE);
    // A peer's caret just after "total" on the unchanged last line, and one inside "return".
    const below = BEFORE.indexOf("total") + "total".length;
    const inside = BEFORE.indexOf("return") + 3;
    const carets = [below, inside].map((index) => Y.createRelativePositionFromTypeIndex(ytext, index));
    format(ytext, AFTER, "binding");
    const [belowAfter, insideAfter] = carets.map(
      (caret) => Y.createAbsolutePositionFromRelativePosition(caret, doc)?.index,
    );
    expect(belowAfter).toBe(AFTER.indexOf("total") + "total".length);
    expect(insideAfter).toBe(AFTER.indexOf("return") + 3);
  });

  it("is one undo step for the person who formatted, and leaves a peer's later edit alone", () => {
    const { doc, ytext } = fileWith(BEFORE);
    const binding = { name: "the formatter's binding" };
    const undo = new Y.UndoManager(ytext, { trackedOrigins: new Set([binding]), captureTimeout: 0 });
    format(ytext, AFTER, binding);
    doc.transact(() => ytext.insert(ytext.length, "// a peer\n"), "remote");
    undo.undo();
    expect(ytext.toString()).toBe(`${BEFORE}// a peer\n`);
    expect(undo.undoStack).toHaveLength(0);
  });

  it("handles insertions and deletions at both ends and non-ASCII text", () => {
    for (const [before, after] of [
      ["x", "  x;\n"],
      ["  x;\n", "x"],
      ["", "a\n"],
      ["a\n", ""],
      ["const s = 'héllo 👋'", 'const s = "héllo 👋";\n'],
    ] as const) {
      const { ytext } = fileWith(before);
      format(ytext, after, "binding");
      expect(ytext.toString()).toBe(after);
    }
  });
});

describe("applyFormat", () => {
  it("is one undo step of its own, even right after the person typed", () => {
    const { doc, ytext } = fileWith(BEFORE);
    const binding = { name: "the tab's binding" };
    const undo = new Y.UndoManager(ytext, { trackedOrigins: new Set([binding]), captureTimeout: 60_000 });
    doc.transact(() => ytext.insert(0, "// typed\n"), binding);
    const typed = ytext.toString();
    expect(applyFormat(ytext, undo, typed, `// typed\n${AFTER}`)).toBe(true);
    expect(ytext.toString()).toBe(`// typed\n${AFTER}`);
    undo.undo();
    expect(ytext.toString()).toBe(typed);
    undo.undo();
    expect(ytext.toString()).toBe(BEFORE);
  });

  it("changes nothing when the text moved on while the formatter ran", () => {
    const { ytext } = fileWith(BEFORE);
    const undo = new Y.UndoManager(ytext);
    ytext.insert(0, "x");
    expect(applyFormat(ytext, undo, BEFORE, AFTER)).toBe(false);
    expect(ytext.toString()).toBe(`x${BEFORE}`);
  });
});
