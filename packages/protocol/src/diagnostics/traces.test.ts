import { describe, expect, it } from "vitest";
import { FIXTURES } from "./fixtures";
import { diagnosticsOfRun } from "./index";

const runOf = (stderr: string, stdout = "") => ({ stdout, stderr });

describe("Python", () => {
  it("gives the innermost workspace frame the exception's line", () => {
    expect(
      diagnosticsOfRun({
        language: "python",
        files: ["src/main.py"],
        entry: "src/main.py",
        run: runOf(FIXTURES.py),
      }),
    ).toEqual([
      {
        path: "src/main.py",
        line: 2,
        severity: "error",
        message: "NameError: name 'nme' is not defined. Did you mean: 'name'?",
      },
    ]);
  });

  it("marks a SyntaxError's line", () => {
    expect(
      diagnosticsOfRun({
        language: "python",
        files: ["src/syn.py"],
        entry: "src/syn.py",
        run: runOf(FIXTURES.pySyn),
      }),
    ).toEqual([{ path: "src/syn.py", line: 2, severity: "error", message: "SyntaxError: expected ':'" }]);
  });

  it("marks the workspace's call when the error is raised in the standard library", () => {
    const found = diagnosticsOfRun({
      language: "python",
      files: ["src/stdlib.py"],
      entry: "src/stdlib.py",
      run: runOf(FIXTURES.pyStdlib),
    });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ path: "src/stdlib.py", line: 3 });
    expect(found[0]?.message).toMatch(/^json\.decoder\.JSONDecodeError: Expecting property name/);
  });

  it("marks a warning as a warning, and the error after it", () => {
    expect(
      diagnosticsOfRun({
        language: "python",
        files: ["src/warn.py"],
        entry: "src/warn.py",
        run: runOf(FIXTURES.pyWarning),
      }),
    ).toEqual([
      { path: "src/warn.py", line: 3, severity: "warning", message: "DeprecationWarning: old API" },
      { path: "src/warn.py", line: 4, severity: "error", message: "ZeroDivisionError: division by zero" },
    ]);
  });

  it("ignores what the program prints on stdout", () => {
    expect(
      diagnosticsOfRun({
        language: "python",
        files: ["src/main.py"],
        entry: "src/main.py",
        run: runOf("", FIXTURES.py),
      }),
    ).toEqual([]);
  });
});

describe("Node", () => {
  it("marks the innermost workspace frame of the stack, with its column", () => {
    expect(
      diagnosticsOfRun({
        language: "javascript",
        files: ["src/main.js"],
        entry: "src/main.js",
        run: runOf(FIXTURES.node),
      }),
    ).toEqual([
      {
        path: "src/main.js",
        line: 2,
        column: 3,
        severity: "error",
        message: "ReferenceError: undefinedThing is not defined",
      },
    ]);
  });

  it("marks a SyntaxError from its header line and caret", () => {
    expect(
      diagnosticsOfRun({
        language: "javascript",
        files: ["src/syn.js"],
        entry: "src/syn.js",
        run: runOf(FIXTURES.nodeSyn),
      }),
    ).toEqual([
      {
        path: "src/syn.js",
        line: 2,
        column: 11,
        severity: "error",
        message: "SyntaxError: Unexpected token ';'",
      },
    ]);
  });

  it("marks the workspace file the error was thrown in, not the entry", () => {
    expect(
      diagnosticsOfRun({
        language: "javascript",
        files: ["src/usesLib.js", "src/lib.js"],
        entry: "src/usesLib.js",
        run: runOf(FIXTURES.nodeLib),
      }),
    ).toEqual([
      { path: "src/lib.js", line: 2, column: 17, severity: "error", message: "TypeError: empty input" },
    ]);
  });
});

describe("Node, which errors", () => {
  it("marks the uncaught error, not one the program logged before", () => {
    expect(
      diagnosticsOfRun({
        language: "javascript",
        files: ["src/logged.js"],
        entry: "src/logged.js",
        run: runOf(FIXTURES.nodeLogged),
      }),
    ).toEqual([
      {
        path: "src/logged.js",
        line: 7,
        column: 18,
        severity: "error",
        message: "TypeError: Cannot read properties of null (reading 'length')",
      },
    ]);
  });

  it("reads an ES module's file URLs", () => {
    expect(
      diagnosticsOfRun({
        language: "javascript",
        files: ["src/rejected.mjs"],
        entry: "src/rejected.mjs",
        run: runOf(FIXTURES.nodeEsm),
      }),
    ).toEqual([
      { path: "src/rejected.mjs", line: 2, column: 9, severity: "error", message: "Error: not found" },
    ]);
  });
});

describe("Java stack traces", () => {
  it("marks the innermost frame in the class's file of the run's folder", () => {
    expect(
      diagnosticsOfRun({
        language: "java",
        files: ["src/Main.java"],
        entry: "src/Main.java",
        run: runOf(FIXTURES.java),
      }),
    ).toEqual([
      { path: "src/Main.java", line: 3, severity: "error", message: "java.lang.IllegalStateException: boom" },
    ]);
  });

  it("finds a packaged class under its package's folder, past the JDK's frames", () => {
    const stderr = [
      'Exception in thread "main" java.lang.NumberFormatException: For input string: "x"',
      "\tat java.base/java.lang.NumberFormatException.forInputString(NumberFormatException.java:67)",
      "\tat java.base/java.lang.Integer.parseInt(Integer.java:668)",
      "\tat com.example.Parser.parse(Parser.java:9)",
      "\tat Main.main(Main.java:4)",
    ].join("\n");
    const found = diagnosticsOfRun({
      language: "java",
      files: ["src/Main.java", "src/com/example/Parser.java"],
      entry: "src/Main.java",
      run: runOf(stderr),
    });
    expect(found.map((d) => [d.path, d.line])).toEqual([["src/com/example/Parser.java", 9]]);
  });
});

describe("Go panics", () => {
  it("marks the first workspace frame of the panicking goroutine", () => {
    expect(
      diagnosticsOfRun({
        language: "go",
        files: ["gp/main.go"],
        entry: "gp/main.go",
        run: runOf(FIXTURES.goPanic),
      }),
    ).toEqual([
      {
        path: "gp/main.go",
        line: 8,
        severity: "error",
        message: "panic: runtime error: index out of range [3] with length 0",
      },
    ]);
  });
});

describe("Rust panics", () => {
  it("marks where the thread panicked, with the message below it", () => {
    expect(
      diagnosticsOfRun({
        language: "rust",
        files: ["rp/main.rs"],
        entry: "rp/main.rs",
        run: runOf(FIXTURES.rustPanic),
      }),
    ).toEqual([
      {
        path: "rp/main.rs",
        line: 3,
        column: 21,
        severity: "error",
        message: "index out of bounds: the len is 0 but the index is 3",
      },
    ]);
  });
});
