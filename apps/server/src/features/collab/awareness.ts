import * as decoding from "lib0/decoding";
import * as encoding from "lib0/encoding";

/** Largest awareness state (one user's cursor, selection, name) kept, in bytes of JSON. */
const MAX_STATE_BYTES = 8 * 1024;

export interface AwarenessEntry {
  clientId: number;
  clock: number;
  state: Record<string, unknown> | null;
}

/** Decodes y-protocols' awareness update; throws on malformed bytes, JSON or oversized states. */
export function decodeAwareness(message: Uint8Array): AwarenessEntry[] {
  const decoder = decoding.createDecoder(message);
  const count = decoding.readVarUint(decoder);
  const entries: AwarenessEntry[] = [];
  for (let i = 0; i < count; i++) {
    const clientId = decoding.readVarUint(decoder);
    const clock = decoding.readVarUint(decoder);
    const json = decoding.readVarString(decoder);
    if (json.length > MAX_STATE_BYTES) throw new Error("awareness state too large");
    const state: unknown = JSON.parse(json);
    if (state !== null && (typeof state !== "object" || Array.isArray(state))) {
      throw new Error("awareness state must be an object or null");
    }
    entries.push({ clientId, clock, state: state as Record<string, unknown> | null });
  }
  if (decoding.hasContent(decoder)) throw new Error("trailing bytes after the awareness update");
  return entries;
}

export function encodeAwareness(entries: AwarenessEntry[]): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, entries.length);
  for (const entry of entries) {
    encoding.writeVarUint(encoder, entry.clientId);
    encoding.writeVarUint(encoder, entry.clock);
    encoding.writeVarString(encoder, JSON.stringify(entry.state));
  }
  return encoding.toUint8Array(encoder);
}
