import { fileIdAt, listWorkspace } from "@ensemble/collab";
import { describe, expect, it } from "vitest";
import * as Y from "yjs";
import { applyTextDiff, applyTree } from "./applyTree";
import { Workspace } from "./workspace";

function setup(files: Record<string, string>) {
  const doc = new Y.Doc();
  const workspace = new Workspace(doc);
  for (const [path, content] of Object.entries(files)) workspace.createFile(path, content);
  const text = (path: string) => doc.getText(fileIdAt(doc, path) ?? "missing");
  return { doc, workspace, text };
}

describe("applyTextDiff", () => {
  it("edits only what changed: a caret after the change keeps its place", () => {
    const { doc, text } = setup({ "a.js": "one\ntwo\nthree\n" });
    const caret = Y.createRelativePositionFromTypeIndex(text("a.js"), 10, -1); // after "thr"
    applyTextDiff(text("a.js"), "one\ntwo\nthree\n", "ONE\ntwo\nthree\nfour\n");
    expect(text("a.js").toString()).toBe("ONE\ntwo\nthree\nfour\n");
    expect(Y.createAbsolutePositionFromRelativePosition(caret, doc)?.index).toBe(10);
  });
});

describe("applyTree", () => {
  it("turns untouched files into the target, creates and deletes files", () => {
    const { doc, workspace, text } = setup({ "src/a.js": "a\n", "src/gone.js": "x\n" });
    const base = new Map([
      ["src/a.js", "a\n"],
      ["src/gone.js", "x\n"],
    ]);
    const target = new Map([
      ["src/a.js", "a changed\n"],
      ["src/new.js", "new\n"],
    ]);
    expect(applyTree(doc, workspace, base, target)).toEqual({ merged: [], kept: [], refused: [] });
    expect(listWorkspace(doc).files.map((f) => f.path)).toEqual(["src/a.js", "src/new.js"]);
    expect(text("src/a.js").toString()).toBe("a changed\n");
    expect(text("src/new.js").toString()).toBe("new\n");
  });

  it("merges the target's change into a file edited meanwhile, or keeps the edit when it does not merge", () => {
    const { doc, workspace, text } = setup({ "m.js": "a\nb\nc\nd\ne\nf\ng\n", "c.js": "x\n" });
    // Typed while git ran: a line at the end of m.js, and a change of c.js's only line.
    text("m.js").insert(14, "typed\n");
    text("c.js").delete(0, 1);
    text("c.js").insert(0, "y");
    const base = new Map([
      ["m.js", "a\nb\nc\nd\ne\nf\ng\n"],
      ["c.js", "x\n"],
    ]);
    const target = new Map([
      ["m.js", "A\nb\nc\nd\ne\nf\ng\n"],
      ["c.js", "z\n"],
    ]);
    expect(applyTree(doc, workspace, base, target)).toEqual({
      merged: ["m.js"],
      kept: ["c.js"],
      refused: [],
    });
    expect(text("m.js").toString()).toBe("A\nb\nc\nd\ne\nf\ng\ntyped\n");
    expect(text("c.js").toString()).toBe("y\n");
  });

  it("keeps a file that is gone on the target if it was edited meanwhile", () => {
    const { doc, workspace, text } = setup({ "a.js": "a\n" });
    text("a.js").insert(0, "typed ");
    const result = applyTree(doc, workspace, new Map([["a.js", "a\n"]]), new Map());
    expect(result.kept).toEqual(["a.js"]);
    expect(text("a.js").toString()).toBe("typed a\n");
  });
});
