import { LIMITS } from "@ensemble/protocol";
import * as encoding from "lib0/encoding";
import { describe, expect, it } from "vitest";
import { Awareness } from "y-protocols/awareness";
import * as Y from "yjs";
import { CollabClient } from "./client";
import { decodeLaneFrame, encodeLaneFrame, LANE_SYNC, LaneClient, type LaneWebSocket } from "./lane";
import {
  decodeSyncMessage,
  decodeSyncPart,
  encodeStep1,
  isEmptyUpdate,
  isSyncPart,
  MAX_WHOLE_SYNC_BYTES,
  SYNC_PART,
  SYNC_STEP1,
  SYNC_UPDATE,
  splitSyncMessage,
} from "./messages";

const sameBytes = (a: Uint8Array, b: Uint8Array) =>
  a.byteLength === b.byteLength && a.every((x, i) => x === b[i]);
const bytes = (length: number) => Uint8Array.from({ length }, (_, i) => (i * 31) % 251);

/** A part written field by field, to forge what `splitSyncMessage` never writes. */
function part(index: number, count: number, total: number, chunk: Uint8Array, trailing = false) {
  const encoder = encoding.createEncoder();
  for (const value of [SYNC_PART, index, count, total]) encoding.writeVarUint(encoder, value);
  encoding.writeVarUint8Array(encoder, chunk);
  if (trailing) encoding.writeVarUint(encoder, 0);
  return encoding.toUint8Array(encoder);
}

describe("splitSyncMessage", () => {
  it("sends a message that fits as it is", () => {
    const message = bytes(100);
    const parts = splitSyncMessage(message, 100);
    expect(parts).toHaveLength(1);
    expect(parts[0]).toBe(message);
    expect(isSyncPart(message)).toBe(false);
  });

  it("cuts a larger one into numbered parts under the cap that join back to it", () => {
    const message = bytes(1000);
    const parts = splitSyncMessage(message, 100);
    expect(parts.length).toBe(Math.ceil(1000 / (100 - 32)));
    const joined: number[] = [];
    parts.forEach((bytesOfPart, i) => {
      expect(bytesOfPart.byteLength).toBeLessThanOrEqual(100);
      expect(isSyncPart(bytesOfPart)).toBe(true);
      const { index, count, total, chunk } = decodeSyncPart(bytesOfPart);
      expect({ index, count, total }).toEqual({ index: i, count: parts.length, total: 1000 });
      joined.push(...chunk);
    });
    expect(Uint8Array.from(joined)).toEqual(message);
  });

  it("keeps the default parts within what socket.io's schema and the lane take", () => {
    const parts = splitSyncMessage(bytes(3 * MAX_WHOLE_SYNC_BYTES));
    expect(parts).toHaveLength(4);
    for (const p of parts) expect(p.byteLength).toBeLessThanOrEqual(MAX_WHOLE_SYNC_BYTES);
  });

  it("reads no defective part: trailing bytes, an index past the count, one part, an empty chunk", () => {
    expect(decodeSyncPart(part(1, 2, 10, bytes(5)))).toMatchObject({ index: 1, count: 2, total: 10 });
    expect(() => decodeSyncPart(part(1, 2, 10, bytes(5), true))).toThrow(/trailing/);
    expect(() => decodeSyncPart(part(2, 2, 10, bytes(5)))).toThrow(/part 2 of 2/);
    expect(() => decodeSyncPart(part(0, 1, 10, bytes(5)))).toThrow(/part 0 of 1/);
    expect(() => decodeSyncPart(part(0, 2, 10, new Uint8Array()))).toThrow(/without content/);
    expect(() => decodeSyncPart(part(0, 20, 10, bytes(1)))).toThrow(/without content/);
    expect(() => decodeSyncPart(Uint8Array.of(SYNC_UPDATE, 0))).toThrow(/not a sync part/);
    // A part never reaches a room unjoined: the sync decoder does not know the type.
    expect(() => decodeSyncMessage(part(0, 2, 10, bytes(5)))).toThrow();
  });
});

describe("isEmptyUpdate", () => {
  it("holds for what a document with nothing answers, not for a deletion or an insert", () => {
    const server = new Y.Doc();
    server.getText("t").insert(0, "abc");
    const vector = Y.encodeStateVector(server);
    expect(isEmptyUpdate(Y.encodeStateAsUpdate(new Y.Doc(), vector))).toBe(true);
    const synced = new Y.Doc();
    Y.applyUpdate(synced, Y.encodeStateAsUpdate(server));
    synced.getText("t").delete(0, 1);
    expect(isEmptyUpdate(Y.encodeStateAsUpdate(synced, Y.encodeStateVector(synced)))).toBe(false);
    expect(isEmptyUpdate(Y.encodeStateAsUpdate(server))).toBe(false);
  });
});

describe("CollabClient over a capped transport", () => {
  it("answers a step 1 with a large step 2 in parts, and a keystroke whole", () => {
    const doc = new Y.Doc();
    doc.getText("t").insert(0, "x".repeat(MAX_WHOLE_SYNC_BYTES + 1000));
    const sent: Uint8Array[] = [];
    const client = new CollabClient(doc, new Awareness(doc), {
      sendSync: (m) => sent.push(m),
      sendAwareness: () => {},
    });
    client.connected();
    sent.length = 0;
    client.receiveSync(encodeStep1(new Y.Doc()));
    expect(sent).toHaveLength(2);
    expect(sent.every((m) => isSyncPart(m) && m.byteLength <= MAX_WHOLE_SYNC_BYTES)).toBe(true);
    const joined = new Uint8Array(decodeSyncPart(sent[0] as Uint8Array).total);
    let offset = 0;
    for (const m of sent) {
      const { chunk } = decodeSyncPart(m);
      joined.set(chunk, offset);
      offset += chunk.byteLength;
    }
    const copy = new Y.Doc();
    const step2 = decodeSyncMessage(joined);
    if (step2.type === SYNC_STEP1) throw new Error("expected a step 2");
    Y.applyUpdate(copy, step2.update);
    expect(copy.getText("t").toString()).toBe(doc.getText("t").toString());

    sent.length = 0;
    doc.getText("t").insert(0, "k");
    expect(sent).toHaveLength(1);
    expect(isSyncPart(sent[0] as Uint8Array)).toBe(false);
  });
});

describe("LaneClient", () => {
  function openLane() {
    const frames: Uint8Array[] = [];
    const ws: LaneWebSocket = {
      binaryType: "",
      onopen: null,
      onmessage: null,
      onclose: null,
      onerror: null,
      send: (data) => frames.push(data),
      close: () => {},
    };
    const lane = new LaneClient(ws, {
      open: () => {},
      message: () => {},
      refused: () => {},
      closed: () => {},
    });
    (ws.onopen as unknown as () => void)();
    return { lane, frames };
  }

  it("sends a task's messages as one frame, and parts in frames under the server's cap", async () => {
    const { lane, frames } = openLane();
    lane.send(LANE_SYNC, bytes(10));
    lane.send(LANE_SYNC, bytes(20));
    await Promise.resolve();
    expect(frames).toEqual([
      encodeLaneFrame([
        [LANE_SYNC, bytes(10)],
        [LANE_SYNC, bytes(20)],
      ]),
    ]);

    frames.length = 0;
    const parts = splitSyncMessage(bytes(3 * MAX_WHOLE_SYNC_BYTES));
    for (const p of parts) lane.send(LANE_SYNC, p);
    await Promise.resolve();
    // Two parts would pass the cap: each leaves alone, but for the short last one.
    expect(frames.length).toBe(3);
    for (const frame of frames) expect(frame.byteLength).toBeLessThanOrEqual(LIMITS.socketMessageBytes);
    const received = frames.flatMap((frame) => decodeLaneFrame(frame).map(([, m]) => m));
    expect(received.map((m, i) => sameBytes(m, parts[i] as Uint8Array))).toEqual(parts.map(() => true));
  });
});
