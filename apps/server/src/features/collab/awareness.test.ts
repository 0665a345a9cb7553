import { describe, expect, it, vi } from "vitest";
import { AwarenessStore, decodeAwareness } from "./awareness";

const alice = { id: "u-alice", name: "alice" };

describe("AwarenessStore", () => {
  it("stamps the owner's real user over a forged one and keeps the rest of the state", () => {
    const store = new AwarenessStore();
    const sent = store.apply(
      [
        {
          clientId: 7,
          clock: 1,
          state: { cursor: 3, user: { name: "Impostor", id: "host", color: "#f00" } },
        },
      ],
      alice,
    );
    expect(decodeAwareness(sent as Uint8Array)).toEqual([
      { clientId: 7, clock: 1, state: { cursor: 3, user: { name: "alice", id: "u-alice", color: "#f00" } } },
    ]);
    expect(decodeAwareness(store.encodeAll() as Uint8Array)).toEqual(decodeAwareness(sent as Uint8Array));
  });

  it("ignores a state older than the one it holds, and takes a removal at the same clock", () => {
    const store = new AwarenessStore();
    store.apply([{ clientId: 7, clock: 5, state: { cursor: 1 } }], alice);
    expect(store.apply([{ clientId: 7, clock: 4, state: { cursor: 9 } }], alice)).toBeUndefined();
    expect(store.apply([{ clientId: 7, clock: 5, state: { cursor: 9 } }], alice)).toBeUndefined();
    const removal = store.apply([{ clientId: 7, clock: 5, state: null }], alice);
    expect(decodeAwareness(removal as Uint8Array)).toEqual([{ clientId: 7, clock: 5, state: null }]);
    expect(store.encodeAll()).toBeUndefined();
  });

  it("removes a leaving connection's clients with a newer clock, once", () => {
    const store = new AwarenessStore();
    store.apply([{ clientId: 7, clock: 2, state: { cursor: 1 } }], alice);
    const removal = store.remove([7, 8]);
    expect(decodeAwareness(removal as Uint8Array)).toEqual([{ clientId: 7, clock: 3, state: null }]);
    expect(store.remove([7])).toBeUndefined();
  });

  it("gives a joiner no state it has not heard of for 30 s", () => {
    vi.useFakeTimers();
    try {
      const store = new AwarenessStore();
      store.apply([{ clientId: 7, clock: 1, state: { cursor: 1 } }], alice);
      vi.advanceTimersByTime(20_000);
      store.apply([{ clientId: 8, clock: 1, state: { cursor: 2 } }], alice);
      vi.advanceTimersByTime(15_000);
      expect(decodeAwareness(store.encodeAll() as Uint8Array).map((e) => e.clientId)).toEqual([8]);
    } finally {
      vi.useRealTimers();
    }
  });
});
