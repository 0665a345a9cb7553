import { describe, expect, it } from "vitest";
import { satisfies } from "./semver";

describe("satisfies", () => {
  it.each([
    ["20.20.2", "*", true],
    ["20.20.2", "x", true],
    ["20.20.2", "20.x", true],
    ["20.20.2", "20", true],
    ["20.20.2", "20.20.2", true],
    ["20.20.2", "18.x", false],
    ["3.11.2", "3.10.0", false],
    ["3.11.2", "3.x", true],
    ["3.11.2", "3.11", true],
    ["3.11.2", ">=3.8 <4", true],
    ["3.11.2", ">=3.12", false],
    ["3.11.2", "^3.10", true],
    ["3.11.2", "~3.10", false],
    ["3.11.2", "~3.11.0", true],
    ["0.2.5", "^0.2.1", true],
    ["0.3.0", "^0.2.1", false],
    ["3.11.2", "2.x || 3.x", true],
    ["3.11.2", "<=3.11", true],
    ["3.12.0", "<=3.11", false],
    ["3.11.2", ">3.11", false],
    ["3.12.0", ">3.11", true],
    ["3.11.2", "banana", false],
  ])("%s in %s is %s", (version, range, expected) => {
    expect(satisfies(version, range)).toBe(expected);
  });
});
