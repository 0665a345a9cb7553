import { describe, expect, it } from "vitest";
import * as Y from "yjs";
import { applySharedEdit } from "./sharedEdit";

function workspace() {
  const doc = new Y.Doc();
  const main = doc.getText("main.ts");
  const util = doc.getText("util.ts");
  main.insert(0, 'import { add } from "./util";\nadd(1, 2);\n');
  util.insert(0, "export function add(a: number, b: number) {\n  return a + b;\n}\n");
  return { doc, main, util };
}

/** Where `word` occurs in `text`, as a replacement by `by`. */
function renames(text: string, word: string, by: string) {
  return [...text.matchAll(new RegExp(`\\b${word}\\b`, "g"))].map((m) => ({
    start: m.index,
    end: m.index + word.length,
    text: by,
  }));
}

describe("applySharedEdit", () => {
  it("applies every file's edits in one update", () => {
    const { doc, main, util } = workspace();
    const updates: Uint8Array[] = [];
    doc.on("update", (update: Uint8Array) => updates.push(update));
    applySharedEdit(doc, [
      { ytext: main, edits: renames(main.toString(), "add", "sum") },
      { ytext: util, edits: renames(util.toString(), "add", "sum") },
    ]);
    expect(updates).toHaveLength(1);
    expect(main.toString()).toBe('import { sum } from "./util";\nsum(1, 2);\n');
    expect(util.toString()).toContain("export function sum(a: number");

    // A peer applying that one update has the whole rename.
    const peer = new Y.Doc();
    Y.applyUpdate(peer, Y.encodeStateAsUpdate(doc));
    expect(peer.getText("main.ts").toString()).toBe(main.toString());
    expect(peer.getText("util.ts").toString()).toBe(util.toString());
  });

  it("is one undo step of the person's, across files, apart from their typing", () => {
    const { doc, main, util } = workspace();
    const binding = { name: "binding" };
    const undo = new Y.UndoManager(main, { trackedOrigins: new Set([binding]), captureTimeout: 10_000 });
    doc.transact(() => main.insert(main.length, "// typed\n"), binding);
    const typed = main.toString();
    const utilBefore = util.toString();

    applySharedEdit(
      doc,
      [
        { ytext: main, edits: renames(main.toString(), "add", "sum") },
        { ytext: util, edits: renames(util.toString(), "add", "sum") },
      ],
      undo,
    );
    expect(undo.undoStack).toHaveLength(2);

    undo.undo();
    expect(main.toString()).toBe(typed);
    expect(util.toString()).toBe(utilBefore);
    undo.redo();
    expect(util.toString()).toContain("function sum(");
    // The typing afterwards is a step of its own, and the origin is no longer tracked.
    doc.transact(() => main.insert(0, "// more\n"), binding);
    expect(undo.undoStack).toHaveLength(3);
    doc.transact(() => main.insert(0, "x"), { name: "someone else" });
    expect(undo.undoStack).toHaveLength(3);
  });

  it("refuses overlapping edits and changes nothing", () => {
    const { doc, main, util } = workspace();
    const before = [main.toString(), util.toString()];
    expect(() =>
      applySharedEdit(doc, [
        { ytext: util, edits: [{ start: 0, end: 0, text: "// ok\n" }] },
        {
          ytext: main,
          edits: [
            { start: 0, end: 6, text: "a" },
            { start: 3, end: 8, text: "b" },
          ],
        },
      ]),
    ).toThrow(/overlap/);
    expect([main.toString(), util.toString()]).toEqual(before);
  });
});
