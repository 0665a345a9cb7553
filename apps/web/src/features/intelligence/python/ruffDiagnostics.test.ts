import { describe, expect, it } from "vitest";
import { isError, markerMessage, toRuffDiagnostics } from "./ruffDiagnostics";

// The shape Ruff 0.16's wasm `check` returns (recorded from `import os` + an undefined name).
const unusedImport = {
  code: "F401",
  message: "`os` imported but unused",
  tags: ["unnecessary"],
  annotations: [],
  subDiagnostics: [],
  start_location: { row: 1, column: 8 },
  end_location: { row: 1, column: 10 },
  fix: { message: "Remove unused import: `os`", edits: [] },
};

describe("Ruff's findings", () => {
  it("keeps position, code, message and known tags", () => {
    expect(toRuffDiagnostics([unusedImport])).toEqual([
      {
        code: "F401",
        message: "`os` imported but unused",
        tags: ["unnecessary"],
        start: { line: 1, column: 8 },
        end: { line: 1, column: 10 },
      },
    ]);
  });

  it("drops entries of another shape and answers that are not lists", () => {
    expect(toRuffDiagnostics([{ code: "F401", message: "no location" }, unusedImport])).toHaveLength(1);
    expect(toRuffDiagnostics({ error: "x" })).toEqual([]);
    expect(toRuffDiagnostics([{ ...unusedImport, tags: ["future-tag"] }])[0]?.tags).toEqual([]);
  });

  it("leads a lint's message with its rule, and marks only syntax errors as errors", () => {
    const [lint] = toRuffDiagnostics([unusedImport]);
    if (!lint) throw new Error("no diagnostic");
    expect(markerMessage(lint)).toBe("F401 `os` imported but unused");
    expect(isError(lint)).toBe(false);
    const syntax = { ...lint, code: "invalid-syntax", message: "Expected an expression" };
    expect(markerMessage(syntax)).toBe("Expected an expression");
    expect(isError(syntax)).toBe(true);
  });
});
