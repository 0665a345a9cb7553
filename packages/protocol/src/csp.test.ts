import { describe, expect, it } from "vitest";
import { globalConfig } from "zod/v4/core";
import { parseWithoutEval } from "./csp";

describe("parseWithoutEval", () => {
  it("turns on zod's jitless mode in the configuration zod itself reads", () => {
    parseWithoutEval();
    expect(globalConfig.jitless).toBe(true);
  });
});
