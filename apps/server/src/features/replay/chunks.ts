import { gunzipSync, gzipSync } from "node:zlib";
import * as Y from "yjs";
import { type ClientAuthors, noteClients } from "./authorship";

/** One update of the history: its id (the session's order), author, time and the update. */
export interface HistoryEntry {
  id: number;
  author: string | null;
  /** Milliseconds since the epoch (the database's time, to the millisecond). */
  at: number;
  data: Uint8Array;
}

/** Consecutive updates of one session folded into one stored row (migration 022). */
export interface PackedChunk {
  firstId: number;
  upto: number;
  startAt: number;
  endAt: number;
  edits: number;
  clients: ClientAuthors;
  /** The entries packed and gzip-compressed (`unpackEntries` reads them). */
  data: Uint8Array;
  /** Every update of the chunk merged into one. */
  merged: Uint8Array;
}

/** The format's first byte: a reader refuses another. */
const FORMAT = 1;

class Writer {
  private readonly bytes: number[] = [];
  private readonly parts: Uint8Array[] = [];

  uint(value: number): void {
    let rest = value;
    while (rest >= 0x80) {
      this.bytes.push((rest % 0x80) | 0x80);
      rest = Math.floor(rest / 0x80);
    }
    this.bytes.push(rest);
  }

  /** Zigzag: small negative numbers stay short. */
  int(value: number): void {
    this.uint(value < 0 ? -value * 2 - 1 : value * 2);
  }

  raw(data: Uint8Array): void {
    this.parts.push(Uint8Array.from(this.bytes), data);
    this.bytes.length = 0;
  }

  finish(): Uint8Array {
    this.parts.push(Uint8Array.from(this.bytes));
    return Buffer.concat(this.parts);
  }
}

class Reader {
  private offset = 0;
  constructor(private readonly data: Uint8Array) {}

  uint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = this.data[this.offset++];
      if (byte === undefined) throw new Error("history chunk ends early");
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  }

  int(): number {
    const value = this.uint();
    return value % 2 === 1 ? -(value + 1) / 2 : value / 2;
  }

  raw(length: number): Uint8Array {
    const slice = this.data.subarray(this.offset, this.offset + length);
    if (slice.length !== length) throw new Error("history chunk ends early");
    this.offset += length;
    return slice;
  }
}

/**
 * What packing a chunk costs in CPU, apart from laying it out: the merge of its updates, the
 * gzip of its bytes and the clients each update writes with. Done here for a single chunk,
 * or off the event loop by `packWorker.js` (the compaction's, `packer.ts`), which makes the
 * same three calls.
 */
export interface ChunkWork {
  /** The chunk's bytes, before compression. */
  raw: Uint8Array;
  updates: Uint8Array[];
}

export interface ChunkWorkDone {
  data: Uint8Array;
  merged: Uint8Array;
  /** Per update, in order: the client ids it writes with. */
  clients: number[][];
}

export function doChunkWork({ raw, updates }: ChunkWork): ChunkWorkDone {
  return {
    data: gzipSync(raw),
    merged: Y.mergeUpdates(updates),
    clients: updates.map((update) => [...Y.parseUpdateMeta(update).to.keys()]),
  };
}

/** A chunk laid out: everything but what `ChunkWork` computes. */
export interface ChunkLayout {
  entries: readonly HistoryEntry[];
  startAt: number;
  endAt: number;
  work: ChunkWork;
}

/**
 * Lays consecutive entries (in id order) out as a chunk: each keeps its id, time and author,
 * as deltas from the previous one, so a seek into the chunk stays exact to the update. Authors
 * are listed once (JSON), updates follow their length.
 */
export function layOutChunk(entries: readonly HistoryEntry[]): ChunkLayout {
  const first = entries[0];
  if (!first) throw new Error("an empty chunk");
  const authors: (string | null)[] = [];
  const authorIndex = new Map<string | null, number>();
  const writer = new Writer();
  writer.uint(FORMAT);
  writer.uint(entries.length);
  writer.uint(first.id);
  writer.uint(first.at);
  let previous = first;
  let startAt = first.at;
  let endAt = first.at;
  for (const entry of entries) {
    let index = authorIndex.get(entry.author);
    if (index === undefined) {
      index = authors.push(entry.author) - 1;
      authorIndex.set(entry.author, index);
    }
    writer.uint(entry.id - previous.id);
    writer.int(entry.at - previous.at);
    writer.uint(index);
    writer.uint(entry.data.length);
    writer.raw(entry.data);
    startAt = Math.min(startAt, entry.at);
    endAt = Math.max(endAt, entry.at);
    previous = entry;
  }
  const authorsJson = Buffer.from(JSON.stringify(authors));
  writer.uint(authorsJson.length);
  writer.raw(authorsJson);
  return { entries, startAt, endAt, work: { raw: writer.finish(), updates: entries.map((e) => e.data) } };
}

/** The chunk of a layout and its work done. */
export function finishChunk({ entries, startAt, endAt }: ChunkLayout, done: ChunkWorkDone): PackedChunk {
  const first = entries[0];
  const last = entries.at(-1);
  if (!first || !last) throw new Error("an empty chunk");
  const clients: ClientAuthors = {};
  for (const [i, entry] of entries.entries()) noteClients(clients, done.clients[i] ?? [], entry.author);
  return {
    firstId: first.id,
    upto: last.id,
    startAt,
    endAt,
    edits: entries.length,
    clients,
    data: done.data,
    merged: done.merged,
  };
}

/** Folds consecutive entries (in id order) into a chunk, here and now. */
export function packChunk(entries: readonly HistoryEntry[]): PackedChunk {
  const layout = layOutChunk(entries);
  return finishChunk(layout, doChunkWork(layout.work));
}

/** The entries of a chunk's `data`, in id order. */
export function unpackEntries(data: Uint8Array): HistoryEntry[] {
  const reader = new Reader(gunzipSync(data));
  if (reader.uint() !== FORMAT) throw new Error("unknown history chunk format");
  const count = reader.uint();
  let id = reader.uint();
  let at = reader.uint();
  const raw: { id: number; at: number; author: number; data: Uint8Array }[] = [];
  for (let i = 0; i < count; i++) {
    id += reader.uint();
    at += reader.int();
    const author = reader.uint();
    raw.push({ id, at, author, data: reader.raw(reader.uint()) });
  }
  const authors: unknown = JSON.parse(Buffer.from(reader.raw(reader.uint())).toString("utf8"));
  if (!Array.isArray(authors)) throw new Error("history chunk without authors");
  return raw.map((e) => {
    const author: unknown = authors[e.author];
    return { id: e.id, at: e.at, data: e.data, author: typeof author === "string" ? author : null };
  });
}

/**
 * Splits entries (in id order) into chunks of at most `maxEdits` updates spanning at most
 * `maxSpanMs`: a chunk is what a seek reads to find its exact update, and what it applies as one
 * merged update to pass through.
 */
export function splitChunks(
  entries: readonly HistoryEntry[],
  maxEdits: number,
  maxSpanMs: number,
): HistoryEntry[][] {
  const chunks: HistoryEntry[][] = [];
  let current: HistoryEntry[] = [];
  for (const entry of entries) {
    const first = current[0];
    if (first && (current.length >= maxEdits || entry.at - first.at > maxSpanMs)) {
      chunks.push(current);
      current = [];
    }
    current.push(entry);
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
