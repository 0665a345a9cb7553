import { describe, expect, it } from "vitest";
import * as Y from "yjs";
import { type HistoryEntry, packChunk, splitChunks, unpackEntries } from "./chunks";
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
