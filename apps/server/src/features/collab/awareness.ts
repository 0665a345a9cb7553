import * as decoding from "lib0/decoding";
import * as encoding from "lib0/encoding";

/** Largest awareness state (one user's cursor, selection, name) taken, in characters of JSON. */
export const MAX_AWARENESS_STATE_CHARS = 4096;

/** y-protocols drops a peer's state it has not heard from for this long; so do we, for joiners. */
const OUTDATED_MS = 30_000;

export interface AwarenessEntry {
  clientId: number;
  clock: number;
  state: Record<string, unknown> | null;
  /** The state as the client wrote it. */
  json: string;
}

interface StoredEntry {
  clock: number;
  /** The state as it is sent: JSON, already stamped with its owner's real user. */
  json: string;
  updatedAt: number;
}

/**
 * Decodes y-protocols' awareness update; throws on malformed bytes, JSON or oversized states.
 * `maxEntries` refuses a longer update before reading any state (a client sends only its own).
 */
export function decodeAwareness(
  message: Uint8Array,
  maxEntries = Number.POSITIVE_INFINITY,
): AwarenessEntry[] {
  const decoder = decoding.createDecoder(message);
  const count = decoding.readVarUint(decoder);
  if (count > maxEntries) throw new Error(`at most ${maxEntries} state in an awareness update`);
  const entries: AwarenessEntry[] = [];
  for (let i = 0; i < count; i++) {
    const clientId = decoding.readVarUint(decoder);
    const clock = decoding.readVarUint(decoder);
    const json = decoding.readVarString(decoder);
    if (json.length > MAX_AWARENESS_STATE_CHARS) {
      throw new Error(`awareness state over ${MAX_AWARENESS_STATE_CHARS} characters`);
    }
    const state: unknown = JSON.parse(json);
    if (state !== null && (typeof state !== "object" || Array.isArray(state))) {
      throw new Error("awareness state must be an object or null");
    }
    entries.push({ clientId, clock, state: state as Record<string, unknown> | null, json });
  }
  if (decoding.hasContent(decoder)) throw new Error("trailing bytes after the awareness update");
  return entries;
}

/** Encodes entries whose states are already JSON, in y-protocols' awareness format. */
export function encodeEntries(
  entries: Iterable<[clientId: number, clock: number, json: string]>,
): Uint8Array {
  const list = [...entries];
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, list.length);
  for (const [clientId, clock, json] of list) {
    encoding.writeVarUint(encoder, clientId);
    encoding.writeVarUint(encoder, clock);
    encoding.writeVarString(encoder, json);
  }
  return encoding.toUint8Array(encoder);
}

/**
 * A room's presence: the latest state of every client, kept as the JSON that is sent, so
 * an update is parsed once (to check it) and written once (with its owner's user stamped
 * in), and a joiner gets everyone's states without any JSON work. Clocks follow
 * y-protocols: a state replaces one with an older clock; a removal (null) one with an older
 * or the same clock.
 */
export class AwarenessStore {
  private readonly entries = new Map<number, StoredEntry>();

  /**
   * Applies entries from one connection, stamping `user` into each state; answers the
   * encoded update to send to everyone else, or undefined when nothing changed. `message`,
   * the bytes the entries were decoded from, is that update when every entry is taken as
   * the client wrote it (the usual cursor move): nothing is encoded again.
   */
  apply(
    entries: readonly AwarenessEntry[],
    user: { id: string; name: string },
    message?: Uint8Array,
  ): Uint8Array | undefined {
    const now = Date.now();
    const accepted: [number, number, string][] = [];
    let isAsSent = true;
    for (const { clientId, clock, state, json: sent } of entries) {
      const current = this.entries.get(clientId);
      if (state === null) {
        if (!current || current.clock > clock) continue;
        this.entries.delete(clientId);
        accepted.push([clientId, clock, "null"]);
        isAsSent &&= sent === "null";
        continue;
      }
      if (current && current.clock >= clock) continue;
      const isOwn = isStamped(state, user);
      const json = isOwn
        ? sent
        : JSON.stringify({ ...state, user: { ...asObject(state.user), id: user.id, name: user.name } });
      isAsSent &&= isOwn;
      // A state changes with every cursor move: the entry is updated, not made anew.
      if (current) {
        current.clock = clock;
        current.json = json;
        current.updatedAt = now;
      } else {
        this.entries.set(clientId, { clock, json, updatedAt: now });
      }
      accepted.push([clientId, clock, json]);
    }
    if (accepted.length === 0) return undefined;
    return message && isAsSent && accepted.length === entries.length ? message : encodeEntries(accepted);
  }

  /** Forgets clients (their connection left); answers the removal to send to everyone else. */
  remove(clientIds: Iterable<number>): Uint8Array | undefined {
    const removed: [number, number, string][] = [];
    for (const clientId of clientIds) {
      const current = this.entries.get(clientId);
      if (!current) continue;
      this.entries.delete(clientId);
      // Peers drop a state on a null entry with a newer clock than the one they hold.
      removed.push([clientId, current.clock + 1, "null"]);
    }
    return removed.length > 0 ? encodeEntries(removed) : undefined;
  }

  /** Every live state for a joiner (none outdated), or undefined when there is none. */
  encodeAll(): Uint8Array | undefined {
    const since = Date.now() - OUTDATED_MS;
    const live: [number, number, string][] = [];
    for (const [clientId, entry] of this.entries) {
      if (entry.updatedAt >= since) live.push([clientId, entry.clock, entry.json]);
    }
    return live.length > 0 ? encodeEntries(live) : undefined;
  }
}

/**
 * Whether a state already carries its owner's real user (the browser sets the id and name its
 * join answered): then the client's own JSON is sent on, which every receiver parses to this
 * same state, as JSON.parse keeps the last of repeated keys, as here.
 */
function isStamped(state: Record<string, unknown>, user: { id: string; name: string }): boolean {
  const claimed = state.user;
  if (typeof claimed !== "object" || claimed === null || Array.isArray(claimed)) return false;
  return "id" in claimed && claimed.id === user.id && "name" in claimed && claimed.name === user.name;
}

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? { ...value } : {};
}
