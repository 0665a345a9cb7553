import { describe, expect, it } from "vitest";
import { completionOf, hoverOf, locationsOf, signaturesOf, workspaceEditsOf } from "./convert";

// biome-ignore lint/suspicious/noTemplateCurlyInString: an LSP snippet's placeholder, not a template.
const SNIPPET = "printf(${1:const char *restrict format, ...})";

const range = (line: number, from: number, to: number) => ({
  start: { line, character: from },
  end: { line, character: to },
});

// Shapes as clangd 14 sends them (labels with a leading space or an include bullet, snippets,
// markdown documentation, places in system headers).
describe("a server's answers as our wire shapes", () => {
  it("reads completion items: trimmed labels, snippets, ranges, markdown", () => {
    const list = completionOf({
      isIncomplete: true,
      items: [
        {
          label: " printf(const char *restrict format, ...)",
          kind: 3,
          detail: "int",
          documentation: { kind: "markdown", value: "Prints." },
          filterText: "printf",
          sortText: "3f",
          insertTextFormat: 2,
          textEdit: { range: range(4, 2, 5), newText: SNIPPET },
        },
        { label: "•counter_value", kind: 6 },
      ],
    });
    expect(list.isIncomplete).toBe(true);
    expect(list.items[0]).toEqual({
      label: "printf(const char *restrict format, ...)",
      kind: 3,
      detail: "int",
      documentation: "Prints.",
      insertText: SNIPPET,
      isSnippet: true,
      range: range(4, 2, 5),
      filterText: "printf",
      sortText: "3f",
    });
    expect(list.items[1]).toMatchObject({
      label: "•counter_value",
      insertText: "•counter_value",
      isSnippet: false,
    });
  });

  it("caps a huge list and marks it incomplete", () => {
    const items = Array.from({ length: 500 }, (_, i) => ({ label: `item${i}` }));
    const list = completionOf(items);
    expect(list.items).toHaveLength(200);
    expect(list.isIncomplete).toBe(true);
  });

  it("reads hovers of every content shape, and nothing for an empty one", () => {
    expect(hoverOf({ contents: { kind: "markdown", value: "### variable `x`" } })).toEqual({
      markdown: "### variable `x`",
    });
    expect(hoverOf({ contents: { kind: "plaintext", value: "a*b" }, range: range(0, 1, 2) })).toEqual({
      markdown: "a\\*b",
      range: range(0, 1, 2),
    });
    expect(hoverOf({ contents: [{ language: "c", value: "int x" }] })?.markdown).toBe("```c\nint x\n```");
    expect(hoverOf({ contents: "" })).toBeNull();
    expect(hoverOf(null)).toBeNull();
  });

  it("keeps only places in the workspace", () => {
    expect(
      locationsOf([
        { uri: "file:///box/src/a.c", range: range(1, 4, 9) },
        { uri: "file:///usr/include/stdio.h", range: range(300, 0, 6) },
      ]),
    ).toEqual([{ path: "src/a.c", range: range(1, 4, 9) }]);
    expect(
      locationsOf([
        {
          targetUri: "file:///box/b.h",
          targetRange: range(0, 0, 20),
          targetSelectionRange: range(0, 4, 5),
        },
      ]),
    ).toEqual([{ path: "b.h", range: range(0, 4, 5) }]);
  });

  it("reads signatures with label offsets, and rename edits of workspace files only", () => {
    expect(
      signaturesOf({
        signatures: [
          { label: "int add(int a, int b)", parameters: [{ label: [8, 13] }, { label: "int b" }] },
        ],
        activeSignature: 0,
        activeParameter: 1,
      }),
    ).toEqual({
      signatures: [{ label: "int add(int a, int b)", parameters: [{ label: [8, 13] }, { label: "int b" }] }],
      activeSignature: 0,
      activeParameter: 1,
    });
    expect(signaturesOf({ signatures: [] })).toBeNull();
    expect(
      workspaceEditsOf({
        changes: {
          "file:///box/src/a.c": [{ range: range(0, 4, 5), newText: "y" }],
          "file:///usr/include/x.h": [{ range: range(0, 0, 1), newText: "y" }],
        },
      }),
    ).toEqual([{ path: "src/a.c", edits: [{ range: range(0, 4, 5), newText: "y" }] }]);
  });
});
