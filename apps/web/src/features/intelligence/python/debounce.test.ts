import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { debounceByKey } from "./debounce";

describe("debounceByKey", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("runs once per key after a quiet period, keys independent", () => {
    const ran: string[] = [];
    const debounced = debounceByKey<string>(100, (key) => ran.push(key));
    debounced.call("a");
    vi.advanceTimersByTime(60);
    debounced.call("a");
    debounced.call("b");
    vi.advanceTimersByTime(99);
    expect(ran).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(ran).toEqual(["a", "b"]);
  });

  it("forgets a cancelled key, and everything on cancelAll", () => {
    const ran: string[] = [];
    const debounced = debounceByKey<string>(100, (key) => ran.push(key));
    debounced.call("a");
    debounced.call("b");
    debounced.cancel("a");
    vi.advanceTimersByTime(100);
    expect(ran).toEqual(["b"]);
    debounced.call("c");
    debounced.cancelAll();
    vi.advanceTimersByTime(100);
    expect(ran).toEqual(["b"]);
  });
});
