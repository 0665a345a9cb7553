import { type SYNC_STEP1, SYNC_STEP2, SYNC_UPDATE } from "@ensemble/collab";
import * as encoding from "lib0/encoding";
import * as Y from "yjs";
import type { Snapshot } from "./repo";

/** A Yjs document with nothing in it, as one update. */
const EMPTY_STATE = Y.encodeStateAsUpdate(new Y.Doc());

/** A sync message of y-protocols' encoding (what `@ensemble/collab` writes from a document). */
export function syncMessage(
  type: typeof SYNC_STEP1 | typeof SYNC_STEP2 | typeof SYNC_UPDATE,
  payload: Uint8Array,
) {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, type);
  encoding.writeVarUint8Array(encoder, payload);
  return encoding.toUint8Array(encoder);
}

/** A snapshot of the document, with the mark of the sync state it was taken at. */
export interface MarkedSnapshot extends Snapshot {
  mark: number;
}

/**
 * A session's whole document as bytes that can be sent without encoding the document: the
 * last snapshot (with its summary, when known) and every update broadcast since, in order. A
 * client with nothing gets the snapshot as it is and the tail merged once (cached until the
 * next update); for a 1 MB document that is a copy instead of a 25-70 ms encode, and the
 * document need not exist.
 */
export class SyncState {
  private snapshot: Uint8Array;
  private snapshotSummary: Uint8Array | undefined;
  private tail: Uint8Array[];
  /** How many updates were appended before `tail[0]`: marks survive a new snapshot. */
  private tailStart = 0;
  private mergedTail: Uint8Array | undefined;
  private wholeSummary: Y.Snapshot | undefined;

  constructor(
    snapshot: Uint8Array | undefined,
    summary: Uint8Array | undefined,
    tail: readonly Uint8Array[],
  ) {
    this.snapshot = snapshot ?? EMPTY_STATE;
    this.snapshotSummary = snapshot && summary;
    this.tail = [...tail];
  }

  /** The snapshot, then the tail: applied in order they give the whole document. */
  updates(): Uint8Array[] {
    return [this.snapshot, ...this.tail];
  }

  get tailLength(): number {
    return this.tail.length;
  }

  append(update: Uint8Array): void {
    this.tail.push(update);
    this.mergedTail = undefined;
    this.wholeSummary = undefined;
  }

  /** What the state holds now; a snapshot of the document taken now is `install`ed with it. */
  mark(): number {
    return this.tailStart + this.tail.length;
  }

  /**
   * Takes `snapshot`, which holds everything appended before its mark (and maybe more: it is
   * the document's), in place of the old snapshot and of the tail up to the mark.
   */
  install(snapshot: MarkedSnapshot): void {
    const covered = snapshot.mark - this.tailStart;
    // A snapshot taken later was installed meanwhile.
    if (covered < 0) return;
    this.snapshot = snapshot.state;
    this.snapshotSummary = snapshot.summary;
    this.tail = this.tail.slice(covered);
    this.tailStart = snapshot.mark;
    this.mergedTail = undefined;
    this.wholeSummary = undefined;
  }

  /**
   * The state vector and delete set of the whole state (snapshot and tail), when the snapshot
   * came with its summary: enough to tell whether an update brings anything new.
   */
  summary(): Y.Snapshot | undefined {
    if (this.wholeSummary || !this.snapshotSummary) return this.wholeSummary;
    const { sv, ds } = Y.decodeSnapshot(this.snapshotSummary);
    for (const update of this.tail) {
      for (const [client, clock] of Y.parseUpdateMeta(update).to) {
        if (clock > (sv.get(client) ?? 0)) sv.set(client, clock);
      }
    }
    const deletes =
      this.tail.length > 0 ? Y.mergeDeleteSets([ds, ...this.tail.map((u) => Y.decodeUpdate(u).ds)]) : ds;
    this.wholeSummary = Y.createSnapshot(deletes, sv);
    return this.wholeSummary;
  }

  /**
   * The sync messages that give a client holding `stateVector` (undefined: nothing) all of
   * this state: the snapshot as an update and the tail as step 2, so the client counts itself
   * synced only once it has both; the snapshot alone as step 2 when there is no tail.
   */
  messages(stateVector: Uint8Array | undefined): Uint8Array[] {
    const part = (update: Uint8Array) => (stateVector ? Y.diffUpdate(update, stateVector) : update);
    if (this.tail.length === 0) return [syncMessage(SYNC_STEP2, part(this.snapshot))];
    this.mergedTail ??= this.tail.length === 1 ? (this.tail[0] as Uint8Array) : Y.mergeUpdates(this.tail);
    return [syncMessage(SYNC_UPDATE, part(this.snapshot)), syncMessage(SYNC_STEP2, part(this.mergedTail))];
  }
}
