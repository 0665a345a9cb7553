import { describe, expect, it } from "vitest";
import {
  EditClock,
  isWithin,
  lastEditByUser,
  PARTICIPANT_COLORS,
  participantColor,
  readPeerState,
  TYPIST_COLORS,
  typistColor,
} from "./presence";

describe("colours", () => {
  it("gives a user the same typist colour every time, from the palette of 7", () => {
    expect(TYPIST_COLORS).toHaveLength(7);
    expect(typistColor("user-1")).toBe(typistColor("user-1"));
    expect(TYPIST_COLORS).toContain(typistColor("guest-abc"));
  });

  it("spreads user ids over the palette", () => {
    const used = new Set(Array.from({ length: 100 }, (_, i) => typistColor(`user-${i}`)));
    expect(used.size).toBe(7);
  });

  it("cycles the 10 participant colours by index", () => {
    expect(PARTICIPANT_COLORS).toHaveLength(10);
    expect(participantColor(0)).toBe(PARTICIPANT_COLORS[0]);
    expect(participantColor(10)).toBe(PARTICIPANT_COLORS[0]);
    expect(participantColor(13)).toBe(PARTICIPANT_COLORS[3]);
  });
});

describe("readPeerState", () => {
  it("reads a well-formed state", () => {
    const head = { type: null, tname: "main.js", item: { client: 1, clock: 4 }, assoc: 0 };
    expect(
      readPeerState({
        user: { id: "u1", name: "Ada" },
        lastEdit: 5,
        selection: { anchor: head, head },
        file: "src/main.js",
        top: 12,
      }),
    ).toEqual({ userId: "u1", name: "Ada", lastEdit: 5, head, file: "src/main.js", top: 12 });
  });

  it("drops what is not a state and defaults what is malformed", () => {
    expect(readPeerState(null)).toBeNull();
    expect(readPeerState({ cursor: 1 })).toBeNull();
    expect(readPeerState({ user: { name: 42, id: 7 }, lastEdit: "soon", file: 3, top: -1 })).toEqual({
      userId: null,
      name: "Anonymous",
      lastEdit: null,
      head: null,
      file: null,
      top: null,
    });
  });
});

describe("EditClock", () => {
  const peer = (lastEdit: number | null) => ({
    userId: "u1",
    name: "Ada",
    lastEdit,
    head: null,
    file: null,
    top: null,
  });

  it("stamps a changed lastEdit with the local receive time, whatever the peer's clock says", () => {
    const clock = new EditClock();
    clock.observe(new Map([[1, peer(1_000)]]), 50_000);
    // The peer's clock runs an hour ahead; what counts is when we saw the change.
    clock.observe(new Map([[1, peer(3_601_000)]]), 60_000);
    expect(clock.editedAt(1)).toBe(60_000);
  });

  it("trusts the peer's timestamp only on first sight, capped at now", () => {
    const clock = new EditClock();
    clock.observe(
      new Map([
        [1, peer(40_000)],
        [2, peer(99_000)],
      ]),
      50_000,
    );
    expect(clock.editedAt(1)).toBe(40_000);
    expect(clock.editedAt(2)).toBe(50_000);
  });

  it("keeps the receive time while lastEdit is unchanged and forgets peers that left", () => {
    const clock = new EditClock();
    clock.observe(new Map([[1, peer(1)]]), 10);
    clock.observe(new Map([[1, peer(1)]]), 20);
    expect(clock.editedAt(1)).toBe(1);
    expect(clock.observe(new Map(), 30)).toBe(true);
    expect(clock.editedAt(1)).toBeNull();
  });
});

describe("activity windows", () => {
  it("counts a user as typing for 1.5 s and active for 30 s", () => {
    expect(isWithin(1000, 2499, 1500)).toBe(true);
    expect(isWithin(1000, 2500, 1500)).toBe(false);
    expect(isWithin(null, 0, 30_000)).toBe(false);
  });

  it("takes each person's latest edit over all their tabs, ours included", () => {
    const clock = new EditClock();
    const peers = new Map([
      [1, { userId: "ada", name: "Ada", lastEdit: 10, head: null, file: null, top: null }],
      [2, { userId: "ada", name: "Ada", lastEdit: 20, head: null, file: null, top: null }],
      [3, { userId: "bob", name: "Bob", lastEdit: null, head: null, file: null, top: null }],
    ]);
    clock.observe(peers, 100);
    const edits = lastEditByUser(peers, clock, { id: "me", lastEdit: 90 });
    expect([...edits]).toEqual([
      ["ada", 20],
      ["me", 90],
    ]);
  });
});
