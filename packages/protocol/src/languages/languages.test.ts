import { describe, expect, it } from "vitest";
import { runEntry, runnableLanguage } from "../workspace";
import {
  coerceVersion,
  DEFAULT_LANGUAGE,
  isLanguage,
  LANGUAGE_MAIN_FILES,
  LANGUAGE_RECORDS,
  type LanguageRecord,
  LanguageSchema,
  languageOfExtension,
  STARTER_CODE,
} from "./index";

const records: readonly LanguageRecord[] = LANGUAGE_RECORDS;

/** What every record must satisfy by itself. */
function expectConsistent(r: LanguageRecord) {
  expect(r.id).toMatch(/^[a-z0-9+#.-]+$/);
  expect(r.name.trim()).not.toBe("");
  expect(r.extensions.length).toBeGreaterThan(0);
  for (const ext of r.extensions) expect(ext).toMatch(/^[a-z0-9]+$/);
  const dot = r.mainFile.lastIndexOf(".");
  expect(r.mainFile).not.toContain("/");
  expect(r.extensions).toContain(r.mainFile.slice(dot + 1).toLowerCase());
  expect(r.starter.trim()).not.toBe("");
  expect(r.starter.endsWith("\n")).toBe(true);
  expect(r.monaco).toMatch(/^[a-z0-9-]+$/);
  expect(r.iconColor).toMatch(/^#[0-9a-f]{6}$/);
  expect(r.debianPackages.length).toBeGreaterThan(0);
  // A command on PATH, or (a compiled language's run) the program its compile wrote under {out}.
  expect(r.run.command).toMatch(r.compile ? /^([\w.+-]+|\{out\}\/[\w.+-]+)$/ : /^[\w.+-]+$/);
  if (r.compile) expect(r.compile.command).toMatch(/^[\w.+-]+$/);
  expect(r.version.command).toMatch(/^[\w.+-]+$/);
  // An interpreted language runs the main file; a compiled one compiles it (or its folder) and
  // runs what it wrote to {out}.
  const source = /\{(file|stem|dir|sources)\}/;
  if (r.compile) {
    expect(r.compile.args.some((a) => source.test(a))).toBe(true);
    expect(r.compile.args.some((a) => a.includes("{out}"))).toBe(true);
    expect([r.run.command, ...r.run.args].some((a) => a.includes("{out}"))).toBe(true);
  } else expect(r.run.args.some((a) => a.includes("{file}"))).toBe(true);
  for (const ext of r.sourceExtensions ?? []) expect(r.extensions).toContain(ext);
  // Only folders of Debian's own, never /etc itself (its secrets) nor a way out by "..".
  for (const p of r.systemPaths ?? []) expect(p).toMatch(/^\/(etc|var\/lib)(\/[\w.+-]+)+$/);
  for (const p of r.systemPaths ?? []) expect(p.split("/")).not.toContain("..");
  for (const value of Object.values(r.limits ?? {})) expect(value).toBeGreaterThan(0);
}

function duplicates(values: string[]): string[] {
  return values.filter((v, i) => values.indexOf(v) !== i);
}

describe("language records", () => {
  it("give every language one id and every name one language (ids, aliases, extensions unique)", () => {
    expect(duplicates(records.map((r) => r.id))).toEqual([]);
    // A Piston request names a language by its id or an alias: each must resolve to one record.
    const names = records.flatMap((r) => [...new Set([r.id, ...r.aliases])]);
    expect(duplicates(names)).toEqual([]);
    expect(duplicates(records.flatMap((r) => r.extensions))).toEqual([]);
  });

  it.each(records.map((r) => [r.id, r] as const))("%s is complete and consistent", (_id, r) => {
    expectConsistent(r);
  });

  it("install the languages most people need by default", () => {
    const defaults = records.filter((r) => r.install === "default").map((r) => r.id);
    for (const id of ["c", "c++", "java", "go", "rust", "typescript", "csharp"])
      expect(defaults).toContain(id);
  });

  it("derive the protocol: schema, starters, main files, default", () => {
    expect(LanguageSchema.options).toEqual(records.map((r) => r.id));
    expect(LANGUAGE_RECORDS.slice(0, 2).map((r) => r.id)).toEqual(["javascript", "python"]);
    for (const r of LANGUAGE_RECORDS) {
      expect(STARTER_CODE[r.id]).toBe(r.starter);
      expect(LANGUAGE_MAIN_FILES[r.id]).toBe(`src/${r.mainFile}`);
    }
    expect(isLanguage(DEFAULT_LANGUAGE)).toBe(true);
    expect(isLanguage("cobol-85")).toBe(false);
  });

  it("pick the language of a file by its extension, in any case", () => {
    expect(languageOfExtension("PY")?.id).toBe("python");
    expect(languageOfExtension("mjs")?.id).toBe("javascript");
    expect(languageOfExtension("md")).toBeUndefined();
    expect(runnableLanguage("src/lib/util.Py")).toBe("python");
    expect(runnableLanguage("README.md")).toBeUndefined();
    expect(runnableLanguage(".py")).toBeUndefined();
    expect(runEntry("notes.md", "python")).toEqual({ language: "python", entry: "src/main.py" });
    expect(runEntry("src/a.mjs", "python")).toEqual({ language: "javascript", entry: "src/a.mjs" });
  });

  it("read versions as the machine prints them", () => {
    const byId = Object.fromEntries(records.map((r) => [r.id, r]));
    expect(byId.javascript?.version.parse("v18.19.0\n")).toBe("18.19.0");
    expect(byId.python?.version.parse("Python 3.11.2\n")).toBe("3.11.2");
    const printed: [string, string, string][] = [
      ["c", "12.2.0\n", "12.2.0"],
      ["c++", "12.2.0\n", "12.2.0"],
      ["java", "javac 17.0.15\n", "17.0.15"],
      ["go", "go version go1.19.8 linux/amd64\n", "1.19.8"],
      ["rust", "rustc 1.63.0\n", "1.63.0"],
      ["typescript", "0.17.0\n", "0.17.0"],
      ["csharp", "Mono C# compiler version 6.8.0.105\n", "6.8.0"],
      ["d", "12.2.0\n", "12.2.0"],
      ["fortran", "12.2.0\n", "12.2.0"],
      ["haskell", "9.0.2\n", "9.0.2"],
      ["ocaml", "4.13.1\n", "4.13.1"],
      ["pascal", "3.2.2\n", "3.2.2"],
      ["cobol", "cobc (GnuCOBOL) 3.1.2.0\nCopyright (C) 2020 Free Software Foundation, Inc.\n", "3.1.2"],
      ["nasm", "NASM version 2.16.01\n", "2.16.1"],
      ["nim", "Nim Compiler Version 1.6.10 [Linux: amd64]\nCompiled at 2023-02-12\n", "1.6.10"],
      ["ruby", "ruby 3.1.2p20 (2022-04-12 revision 4491bb740a) [x86_64-linux-gnu]\n", "3.1.2"],
      [
        "php",
        "PHP 8.2.36 (cli) (built: Nov 18 2026 20:02:04) (NTS)\nCopyright (c) The PHP Group\n",
        "8.2.36",
      ],
      ["bash", "GNU bash, version 5.2.15(1)-release (x86_64-pc-linux-gnu)\n", "5.2.15"],
      ["lua", "Lua 5.4.4  Copyright (C) 1994-2022 Lua.org, PUC-Rio\n", "5.4.4"],
      [
        "sqlite3",
        "3.40.1 2022-12-28 14:03:47 df5c253c0b3dd24916e4ec7cf77d3db5294cc9fd45ae7b9c5e82ad8197f3alt1\n",
        "3.40.1",
      ],
      ["perl", "v5.36.0", "5.36.0"],
      [
        "elixir",
        "Erlang/OTP 25 [erts-13.1.5] [source] [64-bit]\n\nElixir 1.14.0 (compiled with Erlang/OTP 24)\n",
        "1.14.0",
      ],
      ["erlang", "25.2.3\n", "25.2.3"],
      ["clojure", "1.11.1", "1.11.1"],
      ["rscript", "Rscript (R) version 4.2.2 Patched (2022-11-10 r83330)\n", "4.2.2"],
      ["racket", "Welcome to Racket v8.7 [cs].\n", "8.7.0"],
      ["lisp", "SBCL 2.2.9.debian\n", "2.2.9"],
      ["prolog", "SWI-Prolog version 9.0.4 for x86_64-linux\n", "9.0.4"],
    ];
    for (const [id, out, version] of printed) expect(byId[id]?.version.parse(out), id).toBe(version);
  });

  it("coerce a version as semver.coerce does, and refuse output without one", () => {
    expect(coerceVersion("8")).toBe("8.0.0");
    expect(coerceVersion("v8.7")).toBe("8.7.0");
    expect(coerceVersion("1.2.3.4-beta")).toBe("1.2.3");
    expect(coerceVersion("version 010.02.3")).toBe("10.2.3");
    expect(() => coerceVersion("command not found")).toThrow(/no version number/);
  });

  it("install the spec's languages and the cheap common ones by default", () => {
    const defaults = records.filter((r) => r.install === "default").map((r) => r.id);
    expect(defaults).toEqual(
      expect.arrayContaining(["javascript", "python", "ruby", "php", "bash", "lua", "sqlite3"]),
    );
    for (const id of ["perl", "rscript", "elixir", "erlang", "clojure", "racket", "lisp", "prolog"])
      expect(defaults).not.toContain(id);
  });
});
