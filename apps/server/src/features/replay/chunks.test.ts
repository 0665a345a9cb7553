import { describe, expect, it } from "vitest";
import * as Y from "yjs";
import { createLogger } from "../../logger";
import { type HistoryEntry, packChunk, splitChunks, unpackEntries } from "./chunks";
import { createChunkPacker } from "./packer";
import { spreadActivity } from "./service";

/** Keystroke updates of two typists, each its own update, with ids and times as stored. */
function typedEntries(count: number): HistoryEntry[] {
  const docs = [new Y.Doc(), new Y.Doc()];
  const entries: HistoryEntry[] = [];
  for (let i = 0; i < count; i++) {
    const doc = docs[i % 2] as Y.Doc;
    const before = Y.encodeStateVector(doc);
    doc.getText("f").insert(0, String.fromCharCode(97 + (i % 26)));
    const data = Y.encodeStateAsUpdate(doc, before);
    for (const other of docs) if (other !== doc) Y.applyUpdate(other, data);
    // Ids of one session skip (others' rows share the sequence); a time may step back a little.
    entries.push({
      id: 100 + i * 3,
      at: 1_700_000_000_000 + i * 40 - (i % 5 === 4 ? 30 : 0),
      author: i % 2 ? "u-1" : null,
      data,
    });
  }
  return entries;
}

describe("history chunks", () => {
  it("unpack gives back every entry of a pack, with its id, time, author and bytes", () => {
    const entries = typedEntries(300);
    const chunk = packChunk(entries);
    const plain = (list: HistoryEntry[]) => list.map((e) => ({ ...e, data: [...e.data] }));
    expect(plain(unpackEntries(chunk.data))).toEqual(plain(entries));
    expect(chunk).toMatchObject({ firstId: 100, upto: 100 + 299 * 3, edits: 300 });
    expect(chunk.startAt).toBe(Math.min(...entries.map((e) => e.at)));
    expect(chunk.endAt).toBe(Math.max(...entries.map((e) => e.at)));
    expect(new Set(Object.values(chunk.clients))).toEqual(new Set([null, "u-1"]));
    // Smaller than the updates alone: one row's overhead, shared, and compressed.
    expect(chunk.data.length).toBeLessThan(entries.reduce((sum, e) => sum + e.data.length, 0));
  });

  it("a chunk's merged update makes the same document as its updates one by one", () => {
    const entries = typedEntries(120);
    const merged = new Y.Doc();
    Y.applyUpdate(merged, packChunk(entries).merged);
    const single = new Y.Doc();
    for (const e of entries) Y.applyUpdate(single, e.data);
    expect(merged.getText("f").toString()).toBe(single.getText("f").toString());
  });

  it("splits by count and by time span, keeping the order", () => {
    const entries = typedEntries(10);
    expect(splitChunks(entries, 4, 60_000).map((c) => c.length)).toEqual([4, 4, 2]);
    const spans = splitChunks(entries, 100, 100);
    expect(spans.flat()).toEqual(entries);
    for (const chunk of spans) expect((chunk.at(-1)?.at ?? 0) - (chunk[0]?.at ?? 0)).toBeLessThanOrEqual(100);
  });

  it("refuses a corrupt chunk rather than reading garbage", () => {
    const { data } = packChunk(typedEntries(3));
    expect(() => unpackEntries(data.subarray(0, data.length - 4))).toThrow();
  });
});

describe("the compaction's packer (packWorker.js)", () => {
  const bytes = (chunk: { data: Uint8Array; merged: Uint8Array }) => ({
    ...chunk,
    data: Buffer.from(chunk.data).toString("hex"),
    merged: Buffer.from(chunk.merged).toString("hex"),
  });

  it("packs on its worker the very chunk packChunk packs here, each job its own", async () => {
    const packer = createChunkPacker(createLogger("silent"));
    try {
      const lists = [
        typedEntries(300),
        typedEntries(7).map((e) => ({ ...e, author: "u-2" })),
        typedEntries(1),
      ];
      const chunks = await Promise.all(lists.map((entries) => packer.pack(entries)));
      expect(chunks.map(bytes)).toEqual(lists.map((entries) => bytes(packChunk(entries))));
      expect(chunks[1]?.clients).not.toEqual(chunks[0]?.clients);
    } finally {
      await packer.close();
    }
  });

  it("refuses a chunk the worker cannot read, and packs the next", async () => {
    const packer = createChunkPacker(createLogger("silent"));
    try {
      const corrupt = [{ id: 1, at: 0, author: null, data: Uint8Array.from([0xff, 0xff, 0xff]) }];
      expect(() => packChunk(corrupt)).toThrow();
      await expect(packer.pack(corrupt)).rejects.toThrow(/packing a history chunk failed/);
      const entries = typedEntries(5);
      expect(bytes(await packer.pack(entries))).toEqual(bytes(packChunk(entries)));
    } finally {
      await packer.close();
    }
  });

  it("ends its worker when idle and starts one for the next chunk; closing fails a chunk under way", async () => {
    const packer = createChunkPacker(createLogger("silent"), 50);
    await packer.pack(typedEntries(3));
    expect(packer.isRunning()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(packer.isRunning()).toBe(false);
    expect((await packer.pack(typedEntries(4))).edits).toBe(4);
    const underWay = packer.pack(typedEntries(300));
    await packer.close();
    await expect(underWay).rejects.toThrow(/exited/);
    expect(packer.isRunning()).toBe(false);
  });
});

describe("spreadActivity", () => {
  it("counts every edit once, in the slices its chunk spans", () => {
    const activity = new Array<number>(10).fill(0);
    spreadActivity(
      activity,
      [
        { startAt: 0, endAt: 0, edits: 3 },
        { startAt: 500, endAt: 999, edits: 100 },
      ],
      0,
      999,
    );
    expect(activity.reduce((a, b) => a + b, 0)).toBe(103);
    expect(activity[0]).toBe(3);
    expect(activity.slice(5).every((n) => n === 20)).toBe(true);
    expect(activity.slice(1, 5).every((n) => n === 0)).toBe(true);
  });
});
