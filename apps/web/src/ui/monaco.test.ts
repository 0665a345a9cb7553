import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { LANGUAGE_RECORDS } from "@ensemble/protocol";
import { describe, expect, it } from "vitest";

/** The language ids the registrations imported by ui/monaco.ts declare, read from Monaco's own files. */
function registeredIds(): Set<string> {
  const source = fs.readFileSync(path.join(import.meta.dirname, "monaco.ts"), "utf8");
  const folders = [...source.matchAll(/languages\/definitions\/([\w-]+)\/register"/g)].map((m) => m[1]);
  const require = createRequire(import.meta.url);
  const definitions = path.dirname(
    path.dirname(require.resolve("monaco-editor/languages/definitions/javascript/register")),
  );
  const ids = new Set<string>(["plaintext"]);
  for (const folder of folders) {
    const file = path.join(definitions, folder ?? "", "register.js");
    for (const m of fs.readFileSync(file, "utf8").matchAll(/id: "([\w-]+)"/g)) if (m[1]) ids.add(m[1]);
  }
  return ids;
}

describe("Monaco's highlighting", () => {
  it("is registered for every language record's editor id", () => {
    const ids = registeredIds();
    expect(ids.has("javascript")).toBe(true);
    const missing = LANGUAGE_RECORDS.filter((r) => !ids.has(r.monaco)).map((r) => `${r.id}: ${r.monaco}`);
    expect(missing).toEqual([]);
  });
});
