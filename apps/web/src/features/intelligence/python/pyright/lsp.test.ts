import { describe, expect, it } from "vitest";
import {
  completionKindName,
  parseCompletions,
  parseDefinition,
  parseHover,
  parsePublishedDiagnostics,
  serverPath,
  toMarkdown,
  workspacePathOf,
} from "./lsp";

const range = { start: { line: 0, character: 1 }, end: { line: 0, character: 4 } };

describe("LSP answers", () => {
  it("reads a completion list or a bare array, and nothing from a malformed answer", () => {
    expect(parseCompletions({ isIncomplete: true, items: [{ label: "path", kind: 9 }] })).toEqual({
      items: [{ label: "path", kind: 9 }],
      isIncomplete: true,
    });
    expect(parseCompletions([{ label: "getcwd" }]).items.map((i) => i.label)).toEqual(["getcwd"]);
    expect(parseCompletions({ items: [{ kind: 3 }] })).toEqual({ items: [], isIncomplete: false });
    expect(parseCompletions(null).items).toEqual([]);
  });

  it("names completion kinds as Monaco does, Text when unknown", () => {
    expect(completionKindName(9)).toBe("Module");
    expect(completionKindName(3)).toBe("Function");
    expect(completionKindName(undefined)).toBe("Text");
    expect(completionKindName(99)).toBe("Text");
  });

  it("reads hover contents of every LSP shape as markdown", () => {
    expect(parseHover({ contents: { kind: "markdown", value: "```python\ndef f()\n```" }, range })).toEqual({
      markdown: ["```python\ndef f()\n```"],
      range,
    });
    expect(parseHover({ contents: [{ language: "python", value: "x: int" }, "doc"] })?.markdown).toEqual([
      "```python\nx: int\n```",
      "doc",
    ]);
    expect(parseHover({ contents: "" })).toBeNull();
    expect(parseHover(null)).toBeNull();
  });

  it("escapes plain text so it is not read as markdown", () => {
    expect(toMarkdown({ kind: "plaintext", value: "a_b *c*" })).toBe("a\\_b \\*c\\*");
  });

  it("reads definitions as locations, a link's target by its name's range", () => {
    const name = { start: { line: 2, character: 4 }, end: { line: 2, character: 9 } };
    expect(parseDefinition({ uri: "file:///workspace/a.py", range })).toEqual([
      { uri: "file:///workspace/a.py", range },
    ]);
    expect(
      parseDefinition([
        { targetUri: "file:///workspace/b.py", targetRange: range, targetSelectionRange: name },
      ]),
    ).toEqual([{ uri: "file:///workspace/b.py", range: name }]);
    expect(parseDefinition(null)).toEqual([]);
    expect(parseDefinition({ uri: 3 })).toEqual([]);
  });

  it("reads published diagnostics, and refuses a malformed notification", () => {
    const published = parsePublishedDiagnostics({
      uri: "file:///workspace/main.py",
      diagnostics: [{ range, severity: 1, code: "reportUndefinedVariable", message: '"x" is not defined' }],
    });
    expect(published?.diagnostics[0]?.message).toBe('"x" is not defined');
    expect(parsePublishedDiagnostics({ uri: "u", diagnostics: [{ message: "no range" }] })).toBeNull();
  });
});

describe("pyright's file system", () => {
  it("puts the workspace beside typeshed, and maps back only workspace files", () => {
    expect(serverPath("src/main.py")).toBe("/workspace/src/main.py");
    expect(workspacePathOf("/workspace/src/main.py")).toBe("src/main.py");
    expect(workspacePathOf("/typeshed/stdlib/os/__init__.pyi")).toBeNull();
    expect(workspacePathOf("/workspaces/x.py")).toBeNull();
  });
});
