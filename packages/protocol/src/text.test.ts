import { describe, expect, it } from "vitest";
import { findNul } from "./text";

describe("findNul", () => {
  it("names the first value or key holding NUL, at any depth", () => {
    expect(findNul({ title: "a\0b" })).toBe("title");
    expect(findNul({ files: [{ name: "ok" }, { content: "x\0" }] })).toBe("files.1.content");
    expect(findNul({ "k\0": 1 })).toBe("k\0");
    expect(findNul("\0")).toBe("");
  });

  it("passes text without NUL, other types, and bodies nested far deeper than the stack", () => {
    expect(
      findNul({ title: "plain \\u0000 text", n: 1, b: true, z: null, list: ["é", "😀"] }),
    ).toBeUndefined();
    const deep = JSON.parse(`${"[".repeat(100_000)}"x"${"]".repeat(100_000)}`);
    expect(findNul(deep)).toBeUndefined();
  });
});
