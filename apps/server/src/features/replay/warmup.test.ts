import { describe, expect, it } from "vitest";
import { warmUpReplay } from "./warmup";

describe("warmUpReplay", () => {
  it("builds the synthetic session's moments, its end holding the text typed", async () => {
    // It throws when the moment built differs from what was typed: a broken seek found at start.
    const ms = await warmUpReplay();
    expect(ms).toBeGreaterThan(0);
  });
});
