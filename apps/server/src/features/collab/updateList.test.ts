import { describe, expect, it } from "vitest";
import { UpdateList } from "./updateList";

/** An update of `size` bytes, each `n`'s low byte. */
const update = (n: number, size: number) => new Uint8Array(size).fill(n & 0xff);

describe("UpdateList", () => {
  it("gives back every update as pushed, across the buffers' growth", () => {
    const pushed = Array.from({ length: 300 }, (_, i) => update(i, 1 + ((i * 37) % 90)));
    const list = new UpdateList();
    const early = [] as Uint8Array[];
    for (const [i, u] of pushed.entries()) {
      list.push(u);
      if (i < 3) early.push(list.at(i));
    }
    expect(list.length).toBe(300);
    expect(list.byteLength).toBe(pushed.reduce((sum, u) => sum + u.byteLength, 0));
    expect(list.toArray()).toEqual(pushed);
    // Views taken before the buffer grew still read their update.
    expect(early).toEqual(pushed.slice(0, 3));
  });

  it("copies what it is given: the message an update came in may be reused", () => {
    const message = update(7, 10);
    const list = new UpdateList([message.subarray(2, 6)]);
    message.fill(0);
    expect(list.at(0)).toEqual(update(7, 4));
  });

  it("drops the updates before an index, keeping the rest and the views taken earlier", () => {
    const list = new UpdateList([update(1, 3), update(2, 5), update(3, 2)]);
    const first = list.at(0);
    list.dropBefore(2);
    expect(list.toArray()).toEqual([update(3, 2)]);
    expect(list.byteLength).toBe(2);
    expect(first).toEqual(update(1, 3));
    list.push(update(4, 1));
    expect(list.toArray()).toEqual([update(3, 2), update(4, 1)]);
    list.dropBefore(10);
    expect(list.length).toBe(0);
    expect(list.byteLength).toBe(0);
    expect(list.toArray()).toEqual([]);
  });
});
