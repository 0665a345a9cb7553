import { MAX_YJS_MESSAGE_BYTES } from "@ensemble/protocol";
import * as decoding from "lib0/decoding";
import * as encoding from "lib0/encoding";
import * as Y from "yjs";

/** y-protocols' sync message types, read and written with y-protocols' own encoding. */
export const SYNC_STEP1 = 0;
export const SYNC_STEP2 = 1;
export const SYNC_UPDATE = 2;
/**
 * Ours, beside y-protocols' types: one part of a sync message larger than one socket message
 * carries (a resync after long offline work). The server joins a connection's consecutive
 * parts and handles the message as if it had come whole (`splitSyncMessage`).
 */
export const SYNC_PART = 3;

/** The largest sync message sent as it is; a larger one goes as parts of at most this size. */
export const MAX_WHOLE_SYNC_BYTES = MAX_YJS_MESSAGE_BYTES;

/** Room kept in a part for its header: type, index, count, total and the chunk's length. */
const PART_HEADER_BYTES = 32;

/** One part as `decodeSyncPart` reads it: `chunk` is bytes `index` of `count` of a `total`-byte message. */
export interface SyncPart {
  index: number;
  count: number;
  total: number;
  chunk: Uint8Array;
}

/** An update read into its structs and delete set (what `Y.decodeUpdate` answers). */
export type DecodedUpdate = ReturnType<typeof Y.decodeUpdate>;

export type SyncMessage =
  | { type: typeof SYNC_STEP1; stateVector: Uint8Array }
  | { type: typeof SYNC_STEP2 | typeof SYNC_UPDATE; update: Uint8Array; decoded: DecodedUpdate };

/** Step 1: "here is what I have" (a state vector). */
export function encodeStep1(doc: Y.Doc): Uint8Array {
  return encodeMessage(SYNC_STEP1, Y.encodeStateVector(doc));
}

/** Step 2: everything `doc` has that the holder of `stateVector` lacks. */
export function encodeStep2(doc: Y.Doc, stateVector?: Uint8Array): Uint8Array {
  return encodeMessage(SYNC_STEP2, Y.encodeStateAsUpdate(doc, stateVector));
}

export function encodeUpdate(update: Uint8Array): Uint8Array {
  return encodeMessage(SYNC_UPDATE, update);
}

function encodeMessage(type: number, payload: Uint8Array): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, type);
  encoding.writeVarUint8Array(encoder, payload);
  return encoding.toUint8Array(encoder);
}

/**
 * Whether `update` is an update of nothing: no structs and no deletions, as a document that
 * holds nothing encodes itself (a new joiner's answer to the server's step 1).
 */
export function isEmptyUpdate(update: Uint8Array): boolean {
  return update.byteLength === 2 && update[0] === 0 && update[1] === 0;
}

/**
 * Parses and fully checks a sync message without touching any document, so a malformed
 * one can be refused before it changes anything; an update comes with what was read of it,
 * so whoever checks it further does not read it again. Throws on any defect.
 */
export function decodeSyncMessage(message: Uint8Array): SyncMessage {
  return checkSyncMessage(readSyncMessage(message));
}

/** `decodeSyncMessage` for a message whose framing `readSyncMessage` already read. */
export function checkSyncMessage(parsed: ReturnType<typeof readSyncMessage>): SyncMessage {
  if (parsed.type === SYNC_STEP1) {
    Y.decodeStateVector(parsed.stateVector);
    return parsed;
  }
  return { ...parsed, decoded: Y.decodeUpdate(parsed.update) };
}

/**
 * A sync message's type and payload, its framing checked (a known type, no trailing bytes)
 * but its update not read: for the client, which applies what the server sent (the server
 * checked every update it relays, and `Y.applyUpdate` reads it once). Reading a 1 MB
 * document's update into structs before applying it would double the client's work.
 */
export function readSyncMessage(
  message: Uint8Array,
):
  | { type: typeof SYNC_STEP1; stateVector: Uint8Array }
  | { type: typeof SYNC_STEP2 | typeof SYNC_UPDATE; update: Uint8Array } {
  const decoder = decoding.createDecoder(message);
  const type = decoding.readVarUint(decoder);
  const payload = decoding.readVarUint8Array(decoder);
  if (decoding.hasContent(decoder)) throw new Error("trailing bytes after the sync message");
  if (type === SYNC_STEP1) return { type, stateVector: payload };
  if (type === SYNC_STEP2 || type === SYNC_UPDATE) return { type, update: payload };
  throw new Error(`unknown sync message type ${type}`);
}

/**
 * `message` as part messages of at most `maxBytes` each, in order, or `[message]` itself when
 * it fits in one: every part names its index, the count of parts and the message's length.
 */
export function splitSyncMessage(message: Uint8Array, maxBytes = MAX_WHOLE_SYNC_BYTES): Uint8Array[] {
  if (message.byteLength <= maxBytes) return [message];
  const chunkBytes = maxBytes - PART_HEADER_BYTES;
  if (chunkBytes < 1) throw new Error(`parts of ${maxBytes} bytes hold no content`);
  const count = Math.ceil(message.byteLength / chunkBytes);
  const parts: Uint8Array[] = [];
  for (let index = 0; index < count; index++) {
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, SYNC_PART);
    encoding.writeVarUint(encoder, index);
    encoding.writeVarUint(encoder, count);
    encoding.writeVarUint(encoder, message.byteLength);
    encoding.writeVarUint8Array(encoder, message.subarray(index * chunkBytes, (index + 1) * chunkBytes));
    parts.push(encoding.toUint8Array(encoder));
  }
  return parts;
}

/** Whether a sync message is a part (checked on its first byte: no decoding, no allocation). */
export function isSyncPart(message: Uint8Array): boolean {
  return message[0] === SYNC_PART;
}

/**
 * Reads a part message; throws on any defect (another type, trailing bytes, an index past
 * its count, a single part, an empty chunk, more parts than the message has bytes).
 */
export function decodeSyncPart(message: Uint8Array): SyncPart {
  const decoder = decoding.createDecoder(message);
  if (decoding.readVarUint(decoder) !== SYNC_PART) throw new Error("not a sync part");
  const index = decoding.readVarUint(decoder);
  const count = decoding.readVarUint(decoder);
  const total = decoding.readVarUint(decoder);
  const chunk = decoding.readVarUint8Array(decoder);
  if (decoding.hasContent(decoder)) throw new Error("trailing bytes after the sync part");
  if (count < 2 || index >= count) throw new Error(`part ${index} of ${count}`);
  if (chunk.byteLength === 0 || count > total) throw new Error("a part without content");
  return { index, count, total, chunk };
}
