import { type SYNC_STEP1, SYNC_STEP2, SYNC_UPDATE } from "@ensemble/collab";
import * as encoding from "lib0/encoding";
import * as Y from "yjs";
import type { Snapshot, StoredDoc } from "./repo";
import { UpdateList } from "./updateList";

/** A Yjs document with nothing in it, as one update. */
const EMPTY_STATE = Y.encodeStateAsUpdate(new Y.Doc());

type SyncType = typeof SYNC_STEP1 | typeof SYNC_STEP2 | typeof SYNC_UPDATE;

/**
 * A sync message of y-protocols' encoding (what `@ensemble/collab` writes from a document),
 * written with one copy of the payload: for a 1 MB snapshot an encoder would copy it twice.
 */
export function syncMessage(type: SyncType, payload: Uint8Array): Uint8Array {
  const header = encoding.createEncoder();
  encoding.writeVarUint(header, type);
  encoding.writeVarUint(header, payload.byteLength);
  const head = encoding.toUint8Array(header);
  const message = new Uint8Array(head.byteLength + payload.byteLength);
  message.set(head);
  message.set(payload, head.byteLength);
  return message;
}

/** A snapshot of the document, with the mark of the sync state it was taken at. */
export interface MarkedSnapshot extends Snapshot {
  mark: number;
}

/**
 * A session's whole document as bytes that can be sent without encoding the document: the
 * last snapshot (with its state vector and summary, when known) and every update broadcast
 * since, in order. A client with nothing gets the snapshot's message (made once) and the tail
 * merged once (cached until the next update); for a 1 MB document that is no work at all
 * instead of a 25-70 ms encode, and the document need not exist.
 */
export class SyncState {
  private snapshot: Uint8Array;
  private snapshotVector: Uint8Array | undefined;
  private snapshotSummary: Uint8Array | undefined;
  /** The snapshot as the message of each type it was sent as (it changes only with the snapshot). */
  private snapshotMessages = new Map<SyncType, Uint8Array>();
  private tail: UpdateList;
  /** How many updates were appended before `tail[0]`: marks survive a new snapshot. */
  private tailStart = 0;
  private mergedTail: Uint8Array | undefined;
  private wholeVector: Uint8Array | undefined;
  private wholeSummary: Y.Snapshot | undefined;

  constructor(stored: StoredDoc) {
    this.snapshot = stored.snapshot ?? EMPTY_STATE;
    this.snapshotVector = stored.snapshot && stored.stateVector;
    this.snapshotSummary = stored.snapshot && stored.summary;
    this.tail = new UpdateList(stored.updates);
  }

  /** How many bytes a client with nothing is sent: the snapshot and the tail. */
  get bytes(): number {
    return this.snapshot.byteLength + this.tail.byteLength;
  }

  /** Whether the state vector and delete set are known without building the document. */
  get isSummarised(): boolean {
    return this.snapshotVector !== undefined && this.snapshotSummary !== undefined;
  }

  /** The snapshot, then the tail: applied in order they give the whole document. */
  updates(): Uint8Array[] {
    return [this.snapshot, ...this.tail.toArray()];
  }

  get tailLength(): number {
    return this.tail.length;
  }

  append(update: Uint8Array): void {
    this.tail.push(update);
    this.mergedTail = undefined;
    this.wholeVector = undefined;
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
    this.snapshotVector = snapshot.stateVector;
    this.snapshotSummary = snapshot.summary;
    this.snapshotMessages.clear();
    this.tail.dropBefore(covered);
    this.tailStart = snapshot.mark;
    this.mergedTail = undefined;
    this.wholeVector = undefined;
    this.wholeSummary = undefined;
  }

  /** The encoded state vector of the whole state (snapshot and tail), when summarised. */
  vector(): Uint8Array | undefined {
    if (this.tail.length === 0 || !this.snapshotVector) return this.snapshotVector;
    if (this.wholeVector) return this.wholeVector;
    const vector = Y.decodeStateVector(this.snapshotVector);
    for (const update of this.tail.toArray()) {
      for (const [client, clock] of Y.parseUpdateMeta(update).to) {
        if (clock > (vector.get(client) ?? 0)) vector.set(client, clock);
      }
    }
    this.wholeVector = Y.encodeStateVector(vector);
    return this.wholeVector;
  }

  /**
   * The state vector and delete set of the whole state, when summarised: enough to tell
   * whether an update brings anything new. Reading the delete set costs a few ms for a long
   * history, so it is read only when an update needs checking.
   */
  summary(): Y.Snapshot | undefined {
    if (this.wholeSummary || !this.snapshotSummary) return this.wholeSummary;
    const { sv, ds } = Y.decodeSnapshot(this.snapshotSummary);
    const tail = this.tail.toArray();
    for (const update of tail) {
      for (const [client, clock] of Y.parseUpdateMeta(update).to) {
        if (clock > (sv.get(client) ?? 0)) sv.set(client, clock);
      }
    }
    const deletes = tail.length > 0 ? Y.mergeDeleteSets([ds, ...tail.map((u) => Y.decodeUpdate(u).ds)]) : ds;
    this.wholeSummary = Y.createSnapshot(deletes, sv);
    return this.wholeSummary;
  }

  /**
   * Whether `update` is certainly in the state without reading it: no structs, and a delete
   * set written byte for byte as the snapshot's summary holds it, with no tail since. That
   * is a client's step 2 in answer to ours when it holds exactly what it was sent (every
   * joiner's), which otherwise costs a read of the whole delete set twice (decoding it and
   * comparing it: tens of ms for a long history). Yjs writes a delete set one way (sorted,
   * merged), and its encoding delimits itself, so equal bytes are the same delete set.
   */
  holdsByBytes(update: Uint8Array): boolean {
    const summary = this.snapshotSummary;
    // An update of no structs starts with a 0 count of clients, then its delete set.
    if (!summary || this.tail.length > 0 || update[0] !== 0) return false;
    const deletes = update.subarray(1);
    if (deletes.byteLength > summary.byteLength) return false;
    return Buffer.compare(deletes, summary.subarray(0, deletes.byteLength)) === 0;
  }

  /**
   * The sync messages that give a client holding `stateVector` (undefined: nothing) all of
   * this state: the snapshot as an update and the tail as step 2, so the client counts itself
   * synced only once it has both; the snapshot alone as step 2 when there is no tail.
   */
  messages(stateVector: Uint8Array | undefined): Uint8Array[] {
    const hasTail = this.tail.length > 0;
    const snapshotType = hasTail ? SYNC_UPDATE : SYNC_STEP2;
    let snapshot: Uint8Array;
    if (stateVector) {
      snapshot = syncMessage(snapshotType, Y.diffUpdate(this.snapshot, stateVector));
    } else {
      snapshot = this.snapshotMessages.get(snapshotType) ?? syncMessage(snapshotType, this.snapshot);
      this.snapshotMessages.set(snapshotType, snapshot);
    }
    if (!hasTail) return [snapshot];
    this.mergedTail ??= this.tail.length === 1 ? this.tail.at(0) : Y.mergeUpdates(this.tail.toArray());
    const tail = stateVector ? Y.diffUpdate(this.mergedTail, stateVector) : this.mergedTail;
    return [snapshot, syncMessage(SYNC_STEP2, tail)];
  }
}
