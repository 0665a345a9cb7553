import { describe, expect, it } from "vitest";
import { OutputCapture } from "./capture";

describe("OutputCapture", () => {
  it("keeps a character split across chunks whole, and interleaves streams in arrival order", () => {
    const capture = new OutputCapture(1024, () => {});
    const snow = Buffer.from("a☃b");
    capture.push("stdout", snow.subarray(0, 2));
    capture.push("stderr", Buffer.from("E"));
    capture.push("stdout", snow.subarray(2));
    capture.close();
    expect(capture.stdout).toBe("a☃b");
    expect(capture.stderr).toBe("E");
    expect(capture.output).toBe("aE☃b");
  });

  it("turns invalid bytes into U+FFFD and keeps NUL", () => {
    const capture = new OutputCapture(1024, () => {});
    capture.push("stdout", Buffer.from([0xff, 0x00, 0x41]));
    capture.close();
    expect(capture.stdout).toBe("\ufffd\u0000A");
  });

  it("keeps the prefix up to the byte cap, then reports the overflow once", () => {
    const overflows: string[] = [];
    const capture = new OutputCapture(5, (s) => overflows.push(s));
    capture.push("stdout", Buffer.from("abc"));
    capture.push("stdout", Buffer.from("defg"));
    capture.push("stdout", Buffer.from("hij"));
    capture.push("stderr", Buffer.from("123456"));
    capture.close();
    expect(capture.stdout).toBe("abcde");
    expect(capture.stderr).toBe("12345");
    expect(capture.overflowed).toBe("stdout");
    expect(capture.truncated).toBe(true);
    expect(overflows).toEqual(["stdout"]);
  });

  it("counts a chunk that lands exactly on the cap as complete until more arrives", () => {
    const overflows: string[] = [];
    const capture = new OutputCapture(3, (s) => overflows.push(s));
    capture.push("stderr", Buffer.from("abc"));
    expect(overflows).toEqual([]);
    capture.push("stderr", Buffer.from("d"));
    expect(overflows).toEqual(["stderr"]);
  });
});
