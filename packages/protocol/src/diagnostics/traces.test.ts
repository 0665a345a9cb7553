import { describe, expect, it } from "vitest";
import { FIXTURES } from "./fixtures";
import { diagnosticsOfRun } from "./index";
import { DIAGNOSTIC_LIMITS } from "./schema";

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

describe("Ruby", () => {
  it("marks the raising frame with the message", () => {
    expect(
      diagnosticsOfRun({
        language: "ruby",
        files: ["src/main.rb"],
        entry: "src/main.rb",
        run: runOf(FIXTURES.ruby),
      }),
    ).toEqual([
      {
        path: "src/main.rb",
        line: 3,
        severity: "error",
        message: "undefined local variable or method `undefined_thing' for main:Object (NameError)",
      },
    ]);
  });

  it("marks a syntax error's line", () => {
    expect(
      diagnosticsOfRun({
        language: "ruby",
        files: ["src/syn.rb"],
        entry: "src/syn.rb",
        run: runOf(FIXTURES.rubySyn),
      }),
    ).toEqual([
      { path: "src/syn.rb", line: 4, severity: "error", message: "syntax error, unexpected `end'" },
    ]);
  });

  it("reads Ruby 3.4's quotes and its parser's syntax errors", () => {
    const nameError =
      "/box/src/main.rb:3:in 'Object#greet': undefined local variable or method 'undefined_thing' for main (NameError)\n\tfrom /box/src/main.rb:5:in '<main>'\n";
    expect(
      diagnosticsOfRun({
        language: "ruby",
        files: ["src/main.rb"],
        entry: "src/main.rb",
        run: runOf(nameError),
      }),
    ).toEqual([
      {
        path: "src/main.rb",
        line: 3,
        severity: "error",
        message: "undefined local variable or method 'undefined_thing' for main (NameError)",
      },
    ]);
    const syntax = [
      "/box/src/syn.rb: /box/src/syn.rb:4: syntax errors found (SyntaxError)",
      '  2 |   puts "x"',
      "  3 |   if",
      "> 4 | end",
      "    | ^~~ unexpected 'end'; expected an expression after `if`",
      "",
    ].join("\n");
    expect(
      diagnosticsOfRun({ language: "ruby", files: ["src/syn.rb"], entry: "src/syn.rb", run: runOf(syntax) }),
    ).toEqual([
      {
        path: "src/syn.rb",
        line: 4,
        severity: "error",
        message: "unexpected 'end'; expected an expression after `if` (SyntaxError)",
      },
    ]);
  });

  it("marks ruby -w's warnings as warnings, and the error after them", () => {
    expect(
      diagnosticsOfRun({
        language: "ruby",
        files: ["src/warn.rb"],
        entry: "src/warn.rb",
        run: runOf(FIXTURES.rubyWarning),
      }),
    ).toEqual([
      { path: "src/warn.rb", line: 2, severity: "warning", message: "assigned but unused variable - x" },
      {
        path: "src/warn.rb",
        line: 4,
        severity: "error",
        message: "undefined method `frist' for [1, 2]:Array (NoMethodError)",
      },
    ]);
  });

  it("marks the workspace's call when a library raises", () => {
    const stderr = [
      "/usr/lib/ruby/3.1.0/json/common.rb:216:in `parse': unexpected token at 'x' (JSON::ParserError)",
      "\tfrom /usr/lib/ruby/3.1.0/json/common.rb:216:in `parse'",
      "\tfrom /box/src/main.rb:2:in `<main>'",
    ].join("\n");
    const found = diagnosticsOfRun({
      language: "ruby",
      files: ["src/main.rb"],
      entry: "src/main.rb",
      run: runOf(stderr),
    });
    expect(found).toEqual([
      {
        path: "src/main.rb",
        line: 2,
        severity: "error",
        message: "unexpected token at 'x' (JSON::ParserError)",
      },
    ]);
  });
});

describe("PHP", () => {
  it("marks a parse error's line", () => {
    expect(
      diagnosticsOfRun({
        language: "php",
        files: ["src/main.php"],
        entry: "src/main.php",
        run: runOf(FIXTURES.php),
      }),
    ).toEqual([
      { path: "src/main.php", line: 3, severity: "error", message: 'syntax error, unexpected token ";"' },
    ]);
  });

  it("marks an uncaught exception once, though PHP prints it on both streams", () => {
    const shown = FIXTURES.phpRt.replaceAll("PHP Fatal error", "Fatal error");
    const found = diagnosticsOfRun({
      language: "php",
      files: ["src/rt.php"],
      entry: "src/rt.php",
      run: runOf(FIXTURES.phpRt, shown),
    });
    expect(found).toEqual([
      { path: "src/rt.php", line: 3, severity: "error", message: "Uncaught Exception: boom" },
    ]);
  });

  it("marks a warning as a warning", () => {
    const found = diagnosticsOfRun({
      language: "php",
      files: ["src/main.php"],
      entry: "src/main.php",
      run: runOf("PHP Warning:  Undefined variable $x in /box/src/main.php on line 2\n"),
    });
    expect(found).toEqual([
      { path: "src/main.php", line: 2, severity: "warning", message: "Undefined variable $x" },
    ]);
  });
});

describe("Lua", () => {
  it("marks the raising line with the message", () => {
    expect(
      diagnosticsOfRun({
        language: "lua",
        files: ["src/main.lua"],
        entry: "src/main.lua",
        run: runOf(FIXTURES.lua),
      }),
    ).toEqual([
      {
        path: "src/main.lua",
        line: 2,
        severity: "error",
        message: "attempt to index a nil value (local 't')",
      },
    ]);
  });

  it("marks a syntax error's line", () => {
    expect(
      diagnosticsOfRun({
        language: "lua",
        files: ["src/syn.lua"],
        entry: "src/syn.lua",
        run: runOf(FIXTURES.luaSyntax),
      }),
    ).toEqual([
      {
        path: "src/syn.lua",
        line: 4,
        severity: "error",
        message: "'end' expected (to close 'if' at line 2) near <eof>",
      },
    ]);
  });
});

describe("Perl", () => {
  it("marks a compile error and a die at their lines", () => {
    expect(
      diagnosticsOfRun({
        language: "perl",
        files: ["src/main.pl"],
        entry: "src/main.pl",
        run: runOf(FIXTURES.perl),
      }),
    ).toEqual([
      {
        path: "src/main.pl",
        line: 5,
        severity: "error",
        message: 'Global symbol "$y" requires explicit package name (did you forget to declare "my $y"?)',
      },
    ]);
    expect(
      diagnosticsOfRun({
        language: "perl",
        files: ["src/rt.pl"],
        entry: "src/rt.pl",
        run: runOf(FIXTURES.perlRuntime),
      }),
    ).toEqual([{ path: "src/rt.pl", line: 3, severity: "error", message: "Illegal division by zero" }]);
  });
});

describe("Bash", () => {
  it("marks each error line", () => {
    expect(
      diagnosticsOfRun({
        language: "bash",
        files: ["src/main.sh"],
        entry: "src/main.sh",
        run: runOf(FIXTURES.bash),
      }),
    ).toEqual([
      { path: "src/main.sh", line: 3, severity: "error", message: "frobnicate: command not found" },
      { path: "src/main.sh", line: 5, severity: "error", message: "syntax error: unexpected end of file" },
    ]);
  });
});

describe("diagnosticsOfRun", () => {
  it("reads the entry's extension when the language is not one it knows by name", () => {
    const found = diagnosticsOfRun({
      language: "python3.12",
      files: ["a.py"],
      entry: "a.py",
      run: runOf(FIXTURES.pySyn.replace("/box/src/syn.py", "/box/a.py")),
    });
    expect(found.map((d) => d.path)).toEqual(["a.py"]);
  });

  it("keeps at most the limit, each message capped", () => {
    const long = "x".repeat(600);
    const stderr = Array.from({ length: 300 }, (_, i) => `/box/src/main.c:${i + 1}:1: error: ${long}`).join(
      "\n",
    );
    const found = diagnosticsOfRun({
      language: "c",
      files: ["src/main.c"],
      entry: "src/main.c",
      compile: runOf(stderr),
    });
    expect(found).toHaveLength(DIAGNOSTIC_LIMITS.maxDiagnostics);
    expect(found[0]?.message.length).toBe(DIAGNOSTIC_LIMITS.maxMessageLength);
  });

  it("finds a traceback at the end of megabytes of stderr", () => {
    const noise = "noise line\n".repeat(200_000);
    const found = diagnosticsOfRun({
      language: "python",
      files: ["src/main.py"],
      entry: "src/main.py",
      run: runOf(noise + FIXTURES.py),
    });
    expect(found.map((d) => [d.path, d.line])).toEqual([["src/main.py", 2]]);
  });

  // A hostile program's stderr made to make the patterns backtrack: each parser must read it
  // in about linear time (a quadratic pattern takes minutes here and the test times out).
  it.each([
    "c",
    "java",
    "go",
    "rust",
    "typescript",
    "python",
    "javascript",
    "ruby",
    "php",
    "lua",
    "perl",
    "bash",
    "csharp",
  ])("reads 64 KiB lines made to backtrack as %s's output, and finds nothing in them", (language) => {
    const tricky = [
      ` ${" ".repeat(65_536)}x`,
      `\tat ${"a.".repeat(32_768)}`,
      `    at ${"(".repeat(65_536)}`,
      `thread '${"'".repeat(65_536)}`,
      `thread 'main' panicked at '${"', ".repeat(20_000)}`,
      `/box/x.rb: ${"/box/x.rb: ".repeat(6_000)}`,
      `PHP Warning:  ${" in a.php".repeat(8_000)}`,
      `/:${"1".repeat(65_536)}x`,
      `a${":1".repeat(32_768)}x`,
      `${"File ".repeat(13_000)}`,
      `lua: ${"a.lua:".repeat(10_000)}`,
      `x${" at a.pl line".repeat(5_000)}`,
      `${"a: line ".repeat(8_000)}`,
    ].join("\n");
    const found = diagnosticsOfRun({
      language,
      files: ["src/main.c"],
      entry: "src/main.c",
      compile: runOf(tricky, tricky),
      run: runOf(tricky, tricky),
    });
    expect(found).toEqual([]);
  });

  it("knows nothing of a language it has no reader for", () => {
    expect(
      diagnosticsOfRun({
        language: "cobol",
        files: ["src/main.cob"],
        entry: "src/main.cob",
        run: runOf("boom"),
      }),
    ).toEqual([]);
  });
});
