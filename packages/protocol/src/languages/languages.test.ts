import { describe, expect, it } from "vitest";
import { runEntry, runnableLanguage } from "../workspace";
import {
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
  });
});
