import type { Runtime } from "@ensemble/protocol";
import { describe, expect, it } from "vitest";
import { matchRuntime } from "./runtimes";

const node20: Runtime = {
  language: "javascript",
  version: "20.20.2",
  aliases: ["js", "node"],
  runtime: "node",
};
const python311: Runtime = { language: "python", version: "3.11.2", aliases: ["py", "python3"] };
const python39: Runtime = { language: "python", version: "3.9.18", aliases: ["py", "python3"] };
const installed = [python39, node20, python311];

describe("matchRuntime", () => {
  it.each([
    ["javascript", "*", node20],
    ["node", "x", node20],
    ["js", "20.x", node20],
    ["JavaScript", "20", node20],
    ["javascript", "20.20.2", node20],
    ["javascript", "18.x", undefined],
    ["python", "3.10.0", undefined],
    ["python", "3.x", python311],
    ["py", "3.11", python311],
    ["python3", ">=3.8 <4", python311],
    ["python", ">=3.12", undefined],
    ["python", "^3.10", python311],
    ["python", "~3.9", python39],
    ["python", "~3.11.0", python311],
    ["python", "2.x || 3.x", python311],
    ["python", "<=3.10", python39],
    ["python", "<3.9.18", undefined],
    ["python", "banana", undefined],
    ["ruby", "*", undefined],
  ])("%s %s", (language, range, expected) => {
    expect(matchRuntime(installed, language, range)).toBe(expected);
  });

  it("compares versions as numbers, not text", () => {
    const python310: Runtime = { ...python39, version: "3.10.1" };
    expect(matchRuntime([python39, python310], "python", "3.x")).toBe(python310);
  });
});
