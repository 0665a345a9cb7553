import * as decoding from "lib0/decoding";
import * as encoding from "lib0/encoding";
import * as Y from "yjs";

/** y-protocols' sync message types, read and written with y-protocols' own encoding. */
export const SYNC_STEP1 = 0;
export const SYNC_STEP2 = 1;
export const SYNC_UPDATE = 2;

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
 * Parses and fully checks a sync message without touching any document, so a malformed
 * one can be refused before it changes anything; an update comes with what was read of it,
 * so whoever checks it further does not read it again. Throws on any defect.
 */
export function decodeSyncMessage(message: Uint8Array): SyncMessage {
  const parsed = readSyncMessage(message);
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
