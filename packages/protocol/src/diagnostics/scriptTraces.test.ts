// Ruby, PHP, Lua, Perl and the other scripting languages' errors (traces.test.ts: Python, Node, Java, Go, Rust).
import { describe, expect, it } from "vitest";
import { FIXTURES } from "./fixtures";
import { diagnosticsOfRun } from "./index";
import { DIAGNOSTIC_LIMITS } from "./schema";

const runOf = (stderr: string, stdout = "") => ({ stdout, stderr });

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
