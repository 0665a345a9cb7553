import { describe, expect, it } from "vitest";
import { FIXTURES } from "./fixtures";
import { diagnosticsOfRun } from "./index";

const compileOf = (stderr: string, stdout = "") => ({ stdout, stderr });

describe("gcc and g++", () => {
  const files = ["src/main.c", "src/inc.c", "src/util.h"];

  it("marks errors and warnings at their line and column, and skips notes", () => {
    expect(
      diagnosticsOfRun({ language: "c", files, entry: "src/main.c", compile: compileOf(FIXTURES.gcc) }),
    ).toEqual([
      {
        path: "src/main.c",
        line: 3,
        column: 13,
        severity: "warning",
        message:
          "initialization of ‘int’ from ‘char *’ makes integer from pointer without a cast [-Wint-conversion]",
      },
      {
        path: "src/main.c",
        line: 4,
        column: 20,
        severity: "error",
        message: "‘y’ undeclared (first use in this function)",
      },
      {
        path: "src/main.c",
        line: 3,
        column: 9,
        severity: "warning",
        message: "unused variable ‘x’ [-Wunused-variable]",
      },
    ]);
  });

  it("reads paths relative to /box", () => {
    const found = diagnosticsOfRun({
      language: "c",
      files,
      entry: "src/main.c",
      compile: compileOf(FIXTURES.gccRel),
    });
    expect(found.map((d) => [d.path, d.line, d.severity])).toEqual([
      ["src/main.c", 3, "warning"],
      ["src/main.c", 4, "error"],
    ]);
  });

  it("marks an error in a workspace header, not the file including it", () => {
    expect(
      diagnosticsOfRun({ language: "c", files, entry: "src/inc.c", compile: compileOf(FIXTURES.gccHeader) }),
    ).toEqual([
      {
        path: "src/util.h",
        line: 1,
        column: 32,
        severity: "error",
        message: "expected ‘;’ before ‘}’ token",
      },
    ]);
  });

  it("reads g++ the same way", () => {
    const found = diagnosticsOfRun({
      language: "c++",
      files: ["src/main.cpp"],
      entry: "src/main.cpp",
      compile: compileOf(FIXTURES.gpp),
    });
    expect(found.map((d) => [d.line, d.column, d.severity])).toEqual([
      [3, 21, "error"],
      [4, 18, "error"],
    ]);
    expect(found[1]?.message).toBe("‘z’ was not declared in this scope");
  });

  it("drops errors in system headers and the linker's lines", () => {
    const stderr = [
      "/usr/include/stdio.h:12:3: error: something in a system header",
      "/usr/bin/ld: /tmp/ccAbc.o: in function `main':",
      "main.c:(.text+0x1e): undefined reference to `missing'",
      "collect2: error: ld returned 1 exit status",
    ].join("\n");
    expect(
      diagnosticsOfRun({ language: "c", files, entry: "src/main.c", compile: compileOf(stderr) }),
    ).toEqual([]);
  });
});

describe("javac", () => {
  it("marks each error at its line, the column from the caret", () => {
    expect(
      diagnosticsOfRun({
        language: "java",
        files: ["src/Main.java"],
        entry: "src/Main.java",
        compile: compileOf(FIXTURES.javac),
      }),
    ).toEqual([
      {
        path: "src/Main.java",
        line: 3,
        column: 17,
        severity: "error",
        message: "incompatible types: String cannot be converted to int",
      },
      { path: "src/Main.java", line: 4, column: 28, severity: "error", message: "cannot find symbol" },
    ]);
  });
});

describe("go build", () => {
  it("marks each error, the path relative to /box", () => {
    expect(
      diagnosticsOfRun({
        language: "go",
        files: ["src/main.go"],
        entry: "src/main.go",
        compile: compileOf(FIXTURES.go),
      }),
    ).toEqual([
      {
        path: "src/main.go",
        line: 6,
        column: 14,
        severity: "error",
        message: 'cannot use "hello" (untyped string constant) as int value in variable declaration',
      },
      { path: "src/main.go", line: 7, column: 14, severity: "error", message: "undefined: y" },
    ]);
  });

  it("reads a path relative to the package's folder (go build run there)", () => {
    const found = diagnosticsOfRun({
      language: "go",
      files: ["src/main.go"],
      entry: "src/main.go",
      compile: compileOf("# example\n./main.go:7:14: undefined: y\n"),
    });
    expect(found).toEqual([
      { path: "src/main.go", line: 7, column: 14, severity: "error", message: "undefined: y" },
    ]);
  });
});

describe("rustc", () => {
  const files = ["src/main.rs"];
  const expected = [
    {
      path: "src/main.rs",
      line: 3,
      column: 20,
      severity: "error",
      message: "cannot find value `y` in this scope [E0425]",
    },
    { path: "src/main.rs", line: 2, column: 18, severity: "error", message: "mismatched types [E0308]" },
  ];

  it("marks each error where its arrow points, and skips the summary", () => {
    expect(
      diagnosticsOfRun({ language: "rust", files, entry: "src/main.rs", compile: compileOf(FIXTURES.rustc) }),
    ).toEqual(expected);
  });

  it("reads a relative path the same way", () => {
    expect(
      diagnosticsOfRun({
        language: "rust",
        files,
        entry: "src/main.rs",
        compile: compileOf(FIXTURES.rustcRel),
      }),
    ).toEqual(expected);
  });
});

describe("TypeScript", () => {
  it("reads tsc's errors (on stdout) with their code", () => {
    expect(
      diagnosticsOfRun({
        language: "typescript",
        files: ["src/main.ts"],
        entry: "src/main.ts",
        compile: compileOf("", FIXTURES.tsc),
      }),
    ).toEqual([
      {
        path: "src/main.ts",
        line: 3,
        column: 7,
        severity: "error",
        message: "Type 'string' is not assignable to type 'number'. [TS2322]",
      },
      {
        path: "src/main.ts",
        line: 4,
        column: 23,
        severity: "error",
        message: "Cannot find name 'missing'. [TS2304]",
      },
    ]);
  });

  it("reads tsc --pretty's form", () => {
    const found = diagnosticsOfRun({
      language: "typescript",
      files: ["src/main.ts"],
      entry: "src/main.ts",
      compile: compileOf("", "src/main.ts:4:23 - error TS2304: Cannot find name 'missing'.\n"),
    });
    expect(found.map((d) => [d.line, d.column])).toEqual([[4, 23]]);
  });

  it("reads esbuild's errors, its 0-based column made 1-based", () => {
    expect(
      diagnosticsOfRun({
        language: "typescript",
        files: ["src/bad.ts"],
        entry: "src/bad.ts",
        compile: compileOf(FIXTURES.esbuild),
      }),
    ).toEqual([{ path: "src/bad.ts", line: 2, column: 11, severity: "error", message: 'Unexpected ";"' }]);
  });
});

describe("coloured output", () => {
  it("reads gcc and rustc with their colour codes", () => {
    const gccFound = diagnosticsOfRun({
      language: "c",
      files: ["src/main.c"],
      entry: "src/main.c",
      compile: compileOf(FIXTURES.gccColor),
    });
    expect(gccFound.map((d) => [d.line, d.column, d.severity, d.message])).toEqual([
      [
        3,
        13,
        "warning",
        "initialization of ‘int’ from ‘char *’ makes integer from pointer without a cast [-Wint-conversion]",
      ],
      [4, 20, "error", "‘y’ undeclared (first use in this function)"],
    ]);
    expect(
      diagnosticsOfRun({
        language: "rust",
        files: ["src/main.rs"],
        entry: "src/main.rs",
        compile: compileOf(FIXTURES.rustcColor),
      }),
    ).toEqual([
      {
        path: "src/main.rs",
        line: 3,
        column: 20,
        severity: "error",
        message: "cannot find value `y` in this scope [E0425]",
      },
    ]);
  });
});

describe("mcs (C#)", () => {
  it("reads its errors as tsc's, with the code", () => {
    expect(
      diagnosticsOfRun({
        language: "csharp",
        files: ["src/Main.cs"],
        entry: "src/Main.cs",
        compile: compileOf(FIXTURES.mcs),
      }),
    ).toEqual([
      {
        path: "src/Main.cs",
        line: 3,
        column: 13,
        severity: "error",
        message: "Cannot implicitly convert type `string' to `int' [CS0029]",
      },
    ]);
  });
});
