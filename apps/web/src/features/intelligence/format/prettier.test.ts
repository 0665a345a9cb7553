import { beforeAll, describe, expect, it } from "vitest";
import { formatterFor } from "../formatters";
import { prettierLanguageOf, registerPrettier } from "./prettier";

const formatAs = (language: string, text: string, path: string) => {
  const format = formatterFor(language);
  if (!format) throw new Error(`no formatter for ${language}`);
  return format(text, path);
};

describe("Prettier's formatters", () => {
  beforeAll(registerPrettier);

  it("formats JavaScript, TypeScript, CSS, HTML and Markdown", async () => {
    expect(await formatAs("javascript", "function f(a,b){return a+b}", "src/a.js")).toBe(
      "function f(a, b) {\n  return a + b;\n}\n",
    );
    expect(await formatAs("typescript", "const n:number=1", "src/a.ts")).toBe("const n: number = 1;\n");
    expect(await formatAs("typescript", "const e=<div   id='x'/>", "src/a.tsx")).toBe(
      'const e = <div id="x" />;\n',
    );
    expect(await formatAs("css", "a{color:red}", "a.css")).toBe("a {\n  color: red;\n}\n");
    expect(await formatAs("html", "<p>hi</p><style>a{color:red}</style>", "index.html")).toContain(
      "<style>\n  a {\n    color: red;\n  }\n</style>",
    );
    expect(await formatAs("markdown", "*  one\n*  two", "README.md")).toBe("- one\n- two\n");
  });

  it("formats a .json file as JSON although the editor shows it as JavaScript", async () => {
    expect(await formatAs("javascript", '{"a":1,"b":[1,2]}', "package.json")).toBe(
      '{ "a": 1, "b": [1, 2] }\n',
    );
  });

  it("throws a one-line message with the place of a syntax error", async () => {
    await expect(formatAs("javascript", "function (\n", "src/bad.js")).rejects.toThrow(/\(1:10\)$/);
  });

  it("offers nothing for a language Prettier does not know", () => {
    expect(prettierLanguageOf("main.py", "python")).toBeUndefined();
    expect(formatterFor("python")).toBeUndefined();
  });
});
