import { beforeEach, describe, expect, it } from "vitest";
import { addPeer, mainPeerId, newPeer, pin, removePeer, resetCall, useCallStore } from "./store";

const peer = (peerId: string) =>
  newPeer(peerId, { participantId: `user-${peerId}`, name: peerId, state: "connected" });

describe("mainPeerId", () => {
  const peers = [peer("a"), peer("b"), peer("c")];

  it("is nobody without peers, whatever was pinned or heard", () => {
    expect(mainPeerId({ peers: [], pinnedId: "a", activeSpeakerId: "b" })).toBeNull();
  });

  it("prefers the pinned peer, then the active speaker, then the first to join", () => {
    expect(mainPeerId({ peers, pinnedId: "b", activeSpeakerId: "c" })).toBe("b");
    expect(mainPeerId({ peers, pinnedId: null, activeSpeakerId: "c" })).toBe("c");
    expect(mainPeerId({ peers, pinnedId: null, activeSpeakerId: null })).toBe("a");
  });

  it("ignores a pinned or speaking id that is not a peer (ourselves, or someone who left)", () => {
    expect(mainPeerId({ peers, pinnedId: "gone", activeSpeakerId: "c" })).toBe("c");
    expect(mainPeerId({ peers, pinnedId: "gone", activeSpeakerId: "me" })).toBe("a");
  });
});

describe("removePeer", () => {
  beforeEach(resetCall);

  it("unpins and forgets the speaker who left, so the main video moves on", () => {
    for (const p of [peer("a"), peer("b")]) addPeer(p);
    pin("b");
    useCallStore.setState({ activeSpeakerId: "b" });
    removePeer("b");
    const state = useCallStore.getState();
    expect(state.pinnedId).toBeNull();
    expect(state.activeSpeakerId).toBeNull();
    expect(mainPeerId(state)).toBe("a");
  });
});
