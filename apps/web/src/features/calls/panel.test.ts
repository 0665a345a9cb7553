import { CALL_MESSAGES } from "@ensemble/protocol";
import { describe, expect, it } from "vitest";
import { callCount, mainTile, type TileSubject, tileNotice, togglePin } from "./panel";
import { type CallStatus, newPeer, type RemotePeer } from "./store";

const playing: TileSubject = {
  state: "connected",
  error: null,
  isVideoOff: false,
  isScreenSharing: false,
  hasFrames: true,
};

const peer = (peerId: string, change: Partial<RemotePeer> = {}) =>
  newPeer(peerId, { participantId: `user-${peerId}`, name: peerId, state: "connected", ...change });

interface CallChange {
  pinnedId?: string;
  activeSpeakerId?: string;
  joinError?: string;
}

function call(status: CallStatus, peers: RemotePeer[], change: CallChange = {}) {
  return {
    status,
    joinError: change.joinError ?? null,
    selfPeerId: status === "idle" ? null : "me",
    peers,
    pinnedId: change.pinnedId ?? null,
    activeSpeakerId: change.activeSpeakerId ?? null,
  };
}

describe("tileNotice", () => {
  it("shows nothing over a playing video", () => {
    expect(tileNotice(playing)).toBeNull();
  });

  it("shows a failed pair's reason with Try again, before anything else", () => {
    const notice = tileNotice({ ...playing, state: "error", error: "ICE failed", isVideoOff: true });
    expect(notice).toEqual({ text: CALL_MESSAGES.tileError("ICE failed"), tone: "error", canRetry: true });
  });

  it("still offers Try again when the failure came without a reason", () => {
    const notice = tileNotice({ ...playing, state: "error", error: null });
    expect(notice?.canRetry).toBe(true);
    expect(notice?.text).toMatch(/^Error: .+/);
  });

  it.each(["new", "creating-offer", "offer-sent", "handling-offer", "answer-sent"] as const)(
    "shows Connecting... while the pair is %s, camera or not",
    (state) => {
      expect(tileNotice({ ...playing, state, isVideoOff: true })?.text).toBe(CALL_MESSAGES.connecting);
    },
  );

  it("shows Camera is off once connected with the camera off, even before any frame", () => {
    expect(tileNotice({ ...playing, isVideoOff: true, hasFrames: false })?.text).toBe(
      CALL_MESSAGES.cameraOff,
    );
  });

  it("shows a shared screen even while the camera is off", () => {
    expect(tileNotice({ ...playing, isVideoOff: true, isScreenSharing: true })).toBeNull();
  });

  it("shows Video loading... until the first frame", () => {
    expect(tileNotice({ ...playing, hasFrames: false })).toEqual({
      text: CALL_MESSAGES.videoLoading,
      tone: "info",
      canRetry: false,
    });
  });
});

describe("mainTile", () => {
  it("shows nobody before joining, or when the join was refused", () => {
    expect(mainTile(call("idle", []))).toBeNull();
    expect(mainTile(call("joining", []))).toBeNull();
    expect(mainTile(call("error", [], { joinError: "The call is full" }))).toBeNull();
  });

  it("shows ourselves while alone in the call", () => {
    expect(mainTile(call("connected", []))).toEqual({ kind: "self" });
  });

  it("shows the first peer, then the active speaker, then the pinned one", () => {
    const peers = [peer("a"), peer("b"), peer("c")];
    expect(mainTile(call("connected", peers))).toEqual({ kind: "peer", peer: peers[0] });
    expect(mainTile(call("connected", peers, { activeSpeakerId: "c" }))).toEqual({
      kind: "peer",
      peer: peers[2],
    });
    expect(mainTile(call("connected", peers, { activeSpeakerId: "c", pinnedId: "b" }))).toEqual({
      kind: "peer",
      peer: peers[1],
    });
  });

  it("shows ourselves when we pinned our own thumbnail, over a speaking peer", () => {
    expect(mainTile(call("connected", [peer("a")], { pinnedId: "me", activeSpeakerId: "a" }))).toEqual({
      kind: "self",
    });
  });
});

describe("callCount", () => {
  it("counts ourselves only once joined", () => {
    expect(callCount(call("idle", []))).toBe(0);
    expect(callCount(call("joining", []))).toBe(0);
    expect(callCount(call("connecting", [peer("a"), peer("b")]))).toBe(3);
    expect(callCount(call("error", [peer("a")]))).toBe(2);
    expect(callCount(call("error", [], { joinError: "The call is full" }))).toBe(0);
  });
});

describe("togglePin", () => {
  it("pins a thumbnail, and unpins it on a second click", () => {
    expect(togglePin({ pinnedId: null }, "a")).toBe("a");
    expect(togglePin({ pinnedId: "b" }, "a")).toBe("a");
    expect(togglePin({ pinnedId: "a" }, "a")).toBeNull();
  });
});
