import fs from "node:fs";
import path from "node:path";
import { LANGUAGE_RECORDS, LANGUAGES, type LanguageRecord, type Runtime } from "@ensemble/protocol";
import { describe, expect, it } from "vitest";
import { detectRuntimes, matchRuntime } from "./runtimes";
import { NODE_STDIO_PRELOAD } from "./sandbox";

const node20: Runtime = {
  language: "javascript",
  version: "20.20.2",
  aliases: ["js", "node"],
  runtime: "node",
};
const python311: Runtime = { language: "python", version: "3.11.2", aliases: ["py", "python3"] };
const python39: Runtime = { language: "python", version: "3.9.18", aliases: ["py", "python3"] };
const installed = [python39, node20, python311];

describe("matchRuntime", () => {
  it.each([
    ["javascript", "*", node20],
    ["node", "x", node20],
    ["js", "20.x", node20],
    ["JavaScript", "20", node20],
    ["javascript", "20.20.2", node20],
    ["javascript", "18.x", undefined],
    ["python", "3.10.0", undefined],
    ["python", "3.x", python311],
    ["py", "3.11", python311],
    ["python3", ">=3.8 <4", python311],
    ["python", ">=3.12", undefined],
    ["python", "^3.10", python311],
    ["python", "~3.9", python39],
    ["python", "~3.11.0", python311],
    ["python", "2.x || 3.x", python311],
    ["python", "<=3.10", python39],
    ["python", "<3.9.18", undefined],
    ["python", "banana", undefined],
    ["ruby", "*", undefined],
  ])("%s %s", (language, range, expected) => {
    expect(matchRuntime(installed, language, range)).toBe(expected);
  });

  it("compares versions as numbers, not text", () => {
    const python310: Runtime = { ...python39, version: "3.10.1" };
    expect(matchRuntime([python39, python310], "python", "3.x")).toBe(python310);
  });
});

describe("detectRuntimes", () => {
  it("derives each runtime from its language record, the server adding only Node's preload", async () => {
    const { runtimes } = await detectRuntimes();
    const node = runtimes.find((r) => r.id === "javascript");
    expect(node).toMatchObject({
      language: "javascript",
      aliases: [...LANGUAGES.javascript.aliases],
      runtime: "node",
      defaultFile: "main.js",
      extraFiles: [NODE_STDIO_PRELOAD],
    });
    expect(node?.run.slice(1)).toEqual(["--require", NODE_STDIO_PRELOAD.path, "{file}"]);
    expect(node?.version).toMatch(/^\d+\.\d+\.\d+$/);
    const python = runtimes.find((r) => r.id === "python");
    expect(python).toMatchObject({ defaultFile: "main.py", extraFiles: [] });
    expect(python?.run.slice(1)).toEqual(["-E", "-s", "-u", "-B", "{file}"]);
    expect(python?.run[0]?.startsWith("/usr/")).toBe(true);
  });

  it("leaves out a missing toolchain, saying why, and takes a compiled program's path as it is", async () => {
    const missing: LanguageRecord = {
      ...LANGUAGES.python,
      compile: { command: "pythonc-that-is-not-here", args: ["{file}"] },
      run: { command: "python-that-is-not-here", args: ["{file}"] },
    };
    const compiled: LanguageRecord = {
      ...LANGUAGES.python,
      compile: { command: "python3", args: ["-m", "py_compile", "{file}"] },
      run: { command: "{out}/main", args: [] },
    };
    const unknown: LanguageRecord = { ...LANGUAGES.python, id: "brainfuck" };
    const { runtimes, problems } = await detectRuntimes(undefined, [missing, compiled, unknown]);
    expect(runtimes).toHaveLength(1);
    expect(runtimes[0]?.compile?.[0]).toMatch(/^\/usr\/.*python3/);
    expect(runtimes[0]?.run).toEqual(["{out}/main"]);
    expect(problems).toEqual([
      "python: pythonc-that-is-not-here, python-that-is-not-here not found under /usr on PATH",
      "brainfuck: not a language of LANGUAGE_RECORDS",
    ]);
  });
});

describe("docs/languages.md", () => {
  it("lists every language record", () => {
    const doc = fs.readFileSync(path.join(import.meta.dirname, "../../../../../docs/languages.md"), "utf8");
    for (const r of LANGUAGE_RECORDS) expect(doc).toContain(`| \`${r.id}\` | ${r.name} |`);
  });
});
