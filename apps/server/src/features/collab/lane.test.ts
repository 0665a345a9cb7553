import { decodeLaneFrame, LANE_AWARENESS, LANE_SYNC } from "@ensemble/collab";
import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { Lane, type LaneEnd, LaneFlusher } from "./lane";

/** A lane over a socket stand-in that records the frames written to it. */
function lane(flusher: LaneFlusher) {
  const sent: Uint8Array[] = [];
  const ws = { readyState: WebSocket.OPEN, send: (frame: Uint8Array) => sent.push(frame) };
  const end: LaneEnd = { open: () => true, receive: () => {}, closed: () => {} };
  return { lane: new Lane(ws as unknown as WebSocket, flusher, end), sent };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe("LaneFlusher", () => {
  it("encodes the same messages once for every lane that carries them, and others apart", async () => {
    const flusher = new LaneFlusher();
    const [a, b, c] = [lane(flusher), lane(flusher), lane(flusher)];
    const update = Uint8Array.of(0, 2, 1, 7);
    const cursor = Uint8Array.of(1, 5);
    // A room's broadcast: the same objects to two receivers; the third also has its own message.
    for (const receiver of [a, b, c]) {
      receiver.lane.send(LANE_SYNC, update);
      receiver.lane.send(LANE_AWARENESS, cursor);
    }
    c.lane.send(LANE_SYNC, Uint8Array.of(0, 2, 1, 9));
    await nextTurn();
    expect(a.sent).toHaveLength(1);
    expect(b.sent[0]).toBe(a.sent[0]);
    expect(c.sent[0]).not.toBe(a.sent[0]);
    expect(decodeLaneFrame(a.sent[0] as Uint8Array)).toEqual([
      [LANE_SYNC, update],
      [LANE_AWARENESS, cursor],
    ]);
    expect(decodeLaneFrame(c.sent[0] as Uint8Array)).toHaveLength(3);
    // Equal bytes in another object are another message: encoded afresh, never mixed up.
    a.lane.send(LANE_SYNC, update);
    b.lane.send(LANE_SYNC, Uint8Array.from(update));
    await nextTurn();
    expect(b.sent[1]).not.toBe(a.sent[1]);
    expect(decodeLaneFrame(b.sent[1] as Uint8Array)).toEqual([[LANE_SYNC, update]]);
  });
});
