import { describe, expect, it } from "vitest";
import { advance, segmentsOf } from "./playback";

describe("replay playback", () => {
  it("advances by wall time times speed and stops at the end", () => {
    expect(advance(1000, 250, 1, 10_000)).toBe(1250);
    expect(advance(1000, 250, 10, 10_000)).toBe(3500);
    expect(advance(9000, 250, 50, 10_000)).toBe(10_000);
  });

  it("cuts a text into its authors' runs, and leaves what the spans miss unattributed", () => {
    const authors = [null, "u1", "u2"];
    expect(
      segmentsOf(
        "abcdef",
        [
          [0, 2],
          [1, 3],
          [2, 1],
        ],
        authors,
      ),
    ).toEqual([
      { text: "ab", author: null },
      { text: "cde", author: "u1" },
      { text: "f", author: "u2" },
    ]);
    expect(segmentsOf("abc", [[1, 1]], authors)).toEqual([
      { text: "a", author: "u1" },
      { text: "bc", author: null },
    ]);
    expect(segmentsOf("", [], authors)).toEqual([]);
  });
});
