import { describe, expect, it } from "vitest";
import { isAutoplayBlocked } from "./useAutoplayResume";

describe("isAutoplayBlocked", () => {
  it("waits for a gesture only when the autoplay policy refused, not when a new stream aborted play()", () => {
    expect(isAutoplayBlocked(new DOMException("play() needs a gesture", "NotAllowedError"))).toBe(true);
    expect(isAutoplayBlocked(new DOMException("interrupted by a new load", "AbortError"))).toBe(false);
    expect(isAutoplayBlocked(new DOMException("no video", "NotSupportedError"))).toBe(false);
  });
});
