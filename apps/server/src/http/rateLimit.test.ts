import { describe, expect, it } from "vitest";
import { WindowCounter } from "./rateLimit";

describe("WindowCounter", () => {
  it("blocks a key past its limit until the window ends, without touching other keys", () => {
    let now = 0;
    const counter = new WindowCounter(2, 10_000, () => now);
    counter.hit("a");
    expect(counter.retryAfter("a")).toBe(0);
    counter.hit("a");
    expect(counter.retryAfter("a")).toBe(10);
    expect(counter.retryAfter("b")).toBe(0);
    now = 9_001;
    expect(counter.retryAfter("a")).toBe(1);
    now = 10_000;
    expect(counter.retryAfter("a")).toBe(0);
  });

  it("forgets a key on reset", () => {
    const counter = new WindowCounter(1, 1000);
    counter.hit("a");
    counter.reset("a");
    expect(counter.retryAfter("a")).toBe(0);
  });
});
