import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  coerceVersion,
  LANGUAGE_RECORDS,
  LANGUAGES,
  type LanguageRecord,
  type Runtime,
} from "@ensemble/protocol";
import { describe, expect, it } from "vitest";
import { NODE_STDIO_PRELOAD } from "./launch";
import { detectRuntimes, matchRuntime } from "./runtimes";

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

  it("carries a compiled record's systemPaths, and gives TypeScript's Node the same preload as JavaScript's", async () => {
    const { runtimes } = await detectRuntimes(undefined, [LANGUAGES.java, LANGUAGES.typescript]);
    const java = runtimes.find((r) => r.id === "java");
    if (java) expect(java.systemPaths).toEqual(["/etc/java-17-openjdk"]);
    const typescript = runtimes.find((r) => r.id === "typescript");
    if (typescript) {
      expect(typescript.run.slice(1, 3)).toEqual(["--require", NODE_STDIO_PRELOAD.path]);
      expect(typescript.extraFiles).toEqual([NODE_STDIO_PRELOAD]);
    }
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

describe("detectRuntimes of every kind of record", () => {
  it("runs the version commands at once, keeping the records' order", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ensemble-detect-"));
    // The first record's version answers only once the second's has run: in a row, it would
    // wait until its 10 s timeout and fail.
    const waits: LanguageRecord = {
      ...LANGUAGES.ruby,
      version: {
        command: "bash",
        args: ["-c", `until [ -e ${dir}/second ]; do sleep 0.01; done; echo 1.0.0`],
        // coerceVersion: bash may print more (a root's .bashrc when its stdin is a socket).
        parse: coerceVersion,
      },
    };
    const second: LanguageRecord = {
      ...LANGUAGES.php,
      version: {
        command: "bash",
        args: ["-c", `touch ${dir}/second; echo 2.0.0`],
        parse: coerceVersion,
      },
    };
    try {
      const { runtimes, problems } = await detectRuntimes(undefined, [waits, second]);
      expect(problems).toEqual([]);
      expect(runtimes.map((r) => [r.id, r.version])).toEqual([
        ["ruby", "1.0.0"],
        ["php", "2.0.0"],
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("gives R what Debian links into /etc/R and /etc/alternatives, made from the host's own", async () => {
    const { runtimes } = await detectRuntimes(undefined, [LANGUAGES.rscript]);
    const files = new Map((runtimes[0]?.extraFiles ?? []).map((f) => [f.path, f]));
    expect(files.get("/etc/R/ldpaths")?.content.toString()).toMatch(
      /^LD_LIBRARY_PATH="\/usr\/lib\/R\/lib:.*\/usr\/lib\/[\w-]+\/blas:.*lapack/,
    );
    expect(files.get("/etc/R/Renviron")?.content.toString()).toContain("R_LIBS_SITE");
    expect(files.get("/etc/R/Rprofile.site")?.content.toString()).toContain("parse(file");
    const which = files.get("/etc/alternatives/which");
    expect(which?.mode).toBe(0o555);
    expect(which?.content.toString()).toMatch(/^#!\/bin\/sh\nexec \/usr\/bin\/which\S* "\$@"\n$/);
  });

  it("carries a record's environment and file-size limit, and a JVM's security file", async () => {
    const { runtimes } = await detectRuntimes(undefined, [
      LANGUAGES.racket,
      LANGUAGES.elixir,
      LANGUAGES.clojure,
    ]);
    const byId = Object.fromEntries(runtimes.map((r) => [r.id, r]));
    expect(byId.racket?.env).toEqual({ PLTCOMPILEDROOTS: "same:/usr/lib/racket/compiled" });
    expect(byId.elixir?.limits.fileSizeBytes).toBe(64 * 1024 * 1024);
    expect(byId.racket?.limits.fileSizeBytes).toBeUndefined();
    const [security] = byId.clojure?.extraFiles ?? [];
    expect(security?.path).toMatch(/^\/etc\/java-\d+-openjdk\/security\/java\.security$/);
    expect(security?.content.toString()).toContain("security.provider.1=SUN");
  });
});

describe("docs/languages.md", () => {
  it("lists every language record", () => {
    const doc = fs.readFileSync(path.join(import.meta.dirname, "../../../../../docs/languages.md"), "utf8");
    for (const r of LANGUAGE_RECORDS) expect(doc).toContain(`| \`${r.id}\` | ${r.name} |`);
  });
});
