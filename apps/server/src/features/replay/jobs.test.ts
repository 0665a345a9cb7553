import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { restingPace } from "./jobs";

describe("restingPace", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "performance"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Resolves `pace()` and answers how long (fake ms) it rested. */
  async function rest(pace: () => Promise<void>): Promise<number> {
    const start = performance.now();
    let isDone = false;
    void pace().then(() => {
      isDone = true;
    });
    while (!isDone) await vi.advanceTimersByTimeAsync(1);
    return performance.now() - start;
  }

  it("rests in proportion to the step before it, up to its bound", async () => {
    const pace = restingPace(2, 50);
    vi.advanceTimersByTime(10); // a step of 10 ms
    expect(await rest(pace)).toBe(20);
    vi.advanceTimersByTime(4); // the next step is counted from the end of the rest
    expect(await rest(pace)).toBe(8);
    vi.advanceTimersByTime(400); // a long step rests the bound, not 800 ms
    expect(await rest(pace)).toBe(50);
  });
});
