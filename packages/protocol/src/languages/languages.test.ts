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
  expect(r.run.command).toMatch(/^[\w.+-]+$/);
  expect(r.version.command).toMatch(/^[\w.+-]+$/);
  // An interpreted language runs the main file; a compiled one compiles it and runs what it built.
  const stage = r.compile ?? r.run;
  expect(stage.args.some((a) => a.includes("{file}") || a.includes("{stem}"))).toBe(true);
  for (const value of Object.values(r.limits ?? {})) expect(value).toBeGreaterThan(0);
}

/** A compiled language, as a record will declare it once the compile stage lands: the shape holds it. */
const java = {
  id: "java",
  name: "Java",
  aliases: [],
  extensions: ["java"],
  mainFile: "Main.java",
  starter:
    'public class Main {\n  public static void main(String[] args) {\n    System.out.println("Hello, world!");\n  }\n}\n',
  monaco: "java",
  iconColor: "#e76f00",
  debianPackages: ["openjdk-17-jdk-headless"],
  compile: { command: "javac", args: ["-d", ".", "{file}"] },
  run: { command: "java", args: ["-cp", ".", "{stem}"] },
  limits: { compileTimeoutMs: 20_000, runMemoryBytes: 512 * 1024 * 1024 },
  version: { command: "javac", args: ["-version"], parse: (out) => out.trim().replace(/^javac\s+/, "") },
} as const satisfies LanguageRecord;

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

  it("hold a compiled language (compile stage, a main file named for its class, its own limits)", () => {
    expectConsistent(java);
    expect(java.version.parse("javac 17.0.15\n")).toBe("17.0.15");
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
