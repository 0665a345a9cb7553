import fs from "node:fs";
import path from "node:path";
import { LANGUAGE_RECORDS } from "@ensemble/protocol";
import { describe, expect, it } from "vitest";
import { EXTENSION_COLORS, editorLanguage, fileColor } from "./tree";

describe("file types by extension", () => {
  it("highlight and colour every language's files as its record says", () => {
    for (const record of LANGUAGE_RECORDS) {
      for (const ext of record.extensions) {
        expect(editorLanguage(`src/dir/file.${ext.toUpperCase()}`)).toBe(record.monaco);
        expect(fileColor(`file.${ext}`)).toBe(record.iconColor);
        expect(EXTENSION_COLORS[ext]).toBe(record.iconColor);
      }
    }
  });

  it("keep the other file types and fall back to plain text", () => {
    expect(editorLanguage("index.tsx")).toBe("typescript");
    expect(editorLanguage("data.json")).toBe("javascript");
    expect(editorLanguage("README.md")).toBe("markdown");
    expect(editorLanguage("Makefile")).toBe("plaintext");
    expect(editorLanguage("notes.txt")).toBe("plaintext");
    expect(fileColor("style.css")).toBe("#60a5fa");
  });

  it("register each record's Monaco language in the editor bundle", () => {
    const bundle = fs.readFileSync(path.join(import.meta.dirname, "../../ui/monaco.ts"), "utf8");
    // "plaintext" is Monaco's own, for languages it has no highlighting for.
    for (const record of LANGUAGE_RECORDS.filter((r) => r.monaco !== "plaintext")) {
      expect(bundle).toContain(`"monaco-editor/languages/definitions/${record.monaco}/register"`);
    }
  });
});
