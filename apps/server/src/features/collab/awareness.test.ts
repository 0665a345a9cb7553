import { describe, expect, it, vi } from "vitest";
import { type AwarenessEntry, AwarenessStore, decodeAwareness, encodeEntries } from "./awareness";

const alice = { id: "u-alice", name: "alice" };

/** An entry as decodeAwareness reads it from a client that wrote `state` (or the exact `json`). */
function entry(
  clientId: number,
  clock: number,
  state: AwarenessEntry["state"],
  json = JSON.stringify(state),
) {
  return { clientId, clock, state, json };
}

/** The states a receiver reads from an update we sent. */
function received(update: Uint8Array | undefined) {
  return decodeAwareness(update as Uint8Array).map(({ clientId, clock, state }) => ({
    clientId,
    clock,
    state,
  }));
}

/** The JSON texts of an update we sent, as they travel. */
function sentJson(update: Uint8Array | undefined): string[] {
  return decodeAwareness(update as Uint8Array).map((e) => e.json);
}

describe("AwarenessStore", () => {
  it("stamps the owner's real user over a forged one and keeps the rest of the state", () => {
    const store = new AwarenessStore();
    const sent = store.apply(
      [entry(7, 1, { cursor: 3, user: { name: "Impostor", id: "host", color: "#f00" } })],
      alice,
    );
    expect(received(sent)).toEqual([
      { clientId: 7, clock: 1, state: { cursor: 3, user: { name: "alice", id: "u-alice", color: "#f00" } } },
    ]);
    expect(received(store.encodeAll())).toEqual(received(sent));
  });

  it("sends a state that already carries its owner's user on as the client wrote it", () => {
    const store = new AwarenessStore();
    const json = '{ "cursor": 3, "user": { "id": "u-alice", "name": "alice", "color": "#f00" } }';
    const sent = store.apply([entry(7, 1, JSON.parse(json), json)], alice);
    expect(sentJson(sent)).toEqual([json]);
    expect(sentJson(store.encodeAll())).toEqual([json]);
  });

  it("sends the message itself on when every state in it is taken as written, and encodes otherwise", () => {
    const store = new AwarenessStore();
    const own = encodeEntries([[7, 1, '{"cursor":1,"user":{"id":"u-alice","name":"alice"}}']]);
    expect(store.apply(decodeAwareness(own), alice, own)).toBe(own);
    const forged = encodeEntries([[7, 2, '{"cursor":2,"user":{"id":"host","name":"Host"}}']]);
    const stamped = store.apply(decodeAwareness(forged), alice, forged);
    expect(stamped).not.toBe(forged);
    expect(received(stamped)[0]?.state).toEqual({ cursor: 2, user: { id: "u-alice", name: "alice" } });
    // An older clock is skipped: nothing to send, not the message.
    expect(store.apply(decodeAwareness(own), alice, own)).toBeUndefined();
    const removal = encodeEntries([[7, 2, "null"]]);
    expect(store.apply(decodeAwareness(removal), alice, removal)).toBe(removal);
    expect(store.encodeAll()).toBeUndefined();
  });

  it("stamps a state whose repeated user key hides a forged one behind the real one", () => {
    const store = new AwarenessStore();
    const json = '{"user":{"id":"u-alice","name":"alice"},"user":{"id":"host","name":"Host"}}';
    const sent = store.apply(decodeAwareness(encodeEntries([[7, 1, json]])), alice);
    expect(received(sent)).toEqual([
      { clientId: 7, clock: 1, state: { user: { id: "u-alice", name: "alice" } } },
    ]);
    expect(sentJson(sent)).not.toEqual([json]);
  });

  it("ignores a state older than the one it holds, and takes a removal at the same clock", () => {
    const store = new AwarenessStore();
    store.apply([entry(7, 5, { cursor: 1 })], alice);
    expect(store.apply([entry(7, 4, { cursor: 9 })], alice)).toBeUndefined();
    expect(store.apply([entry(7, 5, { cursor: 9 })], alice)).toBeUndefined();
    const removal = store.apply([entry(7, 5, null)], alice);
    expect(received(removal)).toEqual([{ clientId: 7, clock: 5, state: null }]);
    expect(store.encodeAll()).toBeUndefined();
  });

  it("removes a leaving connection's clients with a newer clock, once", () => {
    const store = new AwarenessStore();
    store.apply([entry(7, 2, { cursor: 1 })], alice);
    const removal = store.remove([7, 8]);
    expect(received(removal)).toEqual([{ clientId: 7, clock: 3, state: null }]);
    expect(store.remove([7])).toBeUndefined();
  });

  it("gives a joiner no state it has not heard of for 30 s", () => {
    vi.useFakeTimers();
    try {
      const store = new AwarenessStore();
      store.apply([entry(7, 1, { cursor: 1 })], alice);
      vi.advanceTimersByTime(20_000);
      store.apply([entry(8, 1, { cursor: 2 })], alice);
      vi.advanceTimersByTime(15_000);
      expect(decodeAwareness(store.encodeAll() as Uint8Array).map((e) => e.clientId)).toEqual([8]);
    } finally {
      vi.useRealTimers();
    }
  });
});
