import { describe, expect, it } from "vitest";
import { findFileLinks, workspacePath } from "./links";

const paths = new Set(["main.c", "src/main.c", "lib/util.js", "Main.java", "main.ts", "src/main.rs"]);

describe("findFileLinks", () => {
  it("finds gcc's /box/ path with line and column, in the workspace's terms", () => {
    const line = "/box/src/main.c:3:5: error: expected ';' before '}' token";
    expect(findFileLinks(line, paths)).toEqual([
      { start: 0, end: 19, path: "src/main.c", line: 3, column: 5 },
    ]);
  });

  it("finds path:line (javac), ./path (go), a Node stack frame and tsc's path(line,column)", () => {
    expect(findFileLinks("Main.java:5: error: ';' expected", paths)).toEqual([
      { start: 0, end: 11, path: "Main.java", line: 5 },
    ]);
    expect(findFileLinks("./main.c:4:2: undefined: x", paths)[0]).toMatchObject({
      path: "main.c",
      line: 4,
      column: 2,
    });
    const frame = "    at Object.<anonymous> (/box/lib/util.js:12:9)";
    const [link] = findFileLinks(frame, paths);
    expect(link).toEqual({ start: 27, end: 48, path: "lib/util.js", line: 12, column: 9 });
    expect(frame.slice(link?.start, link?.end)).toBe("/box/lib/util.js:12:9");
    expect(findFileLinks("main.ts(3,7): error TS2322", paths)).toEqual([
      { start: 0, end: 12, path: "main.ts", line: 3, column: 7 },
    ]);
    expect(findFileLinks("  --> src/main.rs:2:5", paths)[0]).toMatchObject({
      path: "src/main.rs",
      line: 2,
      column: 5,
    });
  });

  it("finds a Python traceback's file and line", () => {
    const frame = '  File "/box/src/main.c", line 7, in <module>';
    const [link] = findFileLinks(frame, paths);
    expect(link).toEqual({ start: 8, end: 32, path: "src/main.c", line: 7 });
    expect(frame.slice(link?.start, link?.end)).toBe('/box/src/main.c", line 7');
  });

  it("finds every reference of a line", () => {
    const found = findFileLinks("main.c:1 and src/main.c:2:3", paths);
    expect(found.map((l) => [l.path, l.line, l.column])).toEqual([
      ["main.c", 1, undefined],
      ["src/main.c", 2, 3],
    ]);
  });

  it("links no file outside the workspace, no host:port, no line 0 and no path glued to a word", () => {
    expect(findFileLinks("/usr/include/stdio.h:12:3: note", paths)).toEqual([]);
    expect(findFileLinks("listening on localhost:3000", paths)).toEqual([]);
    expect(findFileLinks("main.c:0: odd", paths)).toEqual([]);
    expect(findFileLinks("xmain.c:3 and /tmp/box/main.c:3", paths)).toEqual([]);
    expect(findFileLinks("http://example.com/main.c:3", paths)).toEqual([]);
  });
});

describe("workspacePath", () => {
  it("drops the sandbox root and ./, and knows only the workspace's files", () => {
    expect(workspacePath("/box/src/main.c", paths)).toBe("src/main.c");
    expect(workspacePath("./././main.c", paths)).toBe("main.c");
    expect(workspacePath("/box/nope.c", paths)).toBeNull();
    expect(workspacePath("box/main.c", paths)).toBeNull();
  });
});
