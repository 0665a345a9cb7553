import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import init, { PositionEncoding, Workspace } from "@astral-sh/ruff-wasm-web";
import { beforeAll, describe, expect, it } from "vitest";
import { toRuffDiagnostics } from "./ruffDiagnostics";
import { RUFF_SETTINGS } from "./ruffProtocol";

// The real WebAssembly with our settings: what a person sees, not what we assume Ruff does.
let ruff: Workspace;
beforeAll(async () => {
  const wasm = createRequire(import.meta.url).resolve("@astral-sh/ruff-wasm-web/ruff_wasm_bg.wasm");
  await init({ module_or_path: await readFile(wasm) });
  ruff = new Workspace(RUFF_SETTINGS, PositionEncoding.Utf16);
});

describe("Ruff with our settings", () => {
  it("flags an unused import and an undefined name, not unsorted imports", () => {
    const codes = toRuffDiagnostics(ruff.check("import sys\nimport os\n\nprint(os.sep, missing)\n")).map(
      (d) => d.code,
    );
    expect(codes.sort()).toEqual(["F401", "F821"]);
  });

  it("counts columns in UTF-16 units, as Monaco does", () => {
    const finding = toRuffDiagnostics(ruff.check('s = "😀"; print(nope)\n')).find((d) => d.code === "F821");
    // "nope" starts at the 17th UTF-16 unit: the emoji is two.
    expect(finding?.start).toEqual({ line: 1, column: 17 });
  });

  it("formats with four spaces and double quotes", () => {
    expect(ruff.format("def f( a ):\n  return {'a':a}\n")).toBe('def f(a):\n    return {"a": a}\n');
  });
});
