import {
  checkSyncMessage,
  encodeStep1,
  encodeStep2,
  encodeUpdate,
  isEmptyUpdate,
  readSyncMessage,
  SYNC_STEP1,
  SYNC_UPDATE,
} from "@ensemble/collab";
import {
  ROLE_MESSAGES,
  SESSION_ENDED_MESSAGE,
  WORKSPACE_LIMITS,
  WORKSPACE_MESSAGES,
} from "@ensemble/protocol";
import * as Y from "yjs";
import { DomainError } from "../../errors";
import { AwarenessStore, decodeAwareness } from "./awareness";
import { LiveDocument } from "./liveDocument";
import type { StoredDoc } from "./repo";
import { type MarkedSnapshot, SyncState, syncMessage } from "./syncState";
import { checkClientUpdate } from "./updateGuard";
import type { Workspace } from "./workspace";

/** Updates kept beside the snapshot for new clients before they are folded into a new one. */
const MAX_TAIL = 2000;

/** One connection to a room, whatever carries it (a socket.io socket, a test pipe). */
export interface RoomConnection {
  readonly id: string;
  /** Who the connection belongs to; stamped on its awareness so names cannot be forged. */
  readonly user: { id: string; name: string };
  /** A viewer's connection: its updates that change anything are refused (`read_only`). */
  isReadOnly?: () => boolean;
  sendSync(message: Uint8Array): void;
  sendAwareness(message: Uint8Array): void;
}

/** Fan-out to every connection but one, encoded once (socket.io: a room broadcast). */
export interface RoomBroadcast {
  sync(message: Uint8Array, except: RoomConnection | undefined): void;
  awareness(message: Uint8Array, except: RoomConnection | undefined): void;
}

/** Client updates applied and refused since the process started (operations, the benchmark). */
export interface UpdateCounts {
  applied: number;
  refused: number;
  /** Built on content the server lacked: not applied, the client was asked to resend. */
  deferred: number;
}

/**
 * One session's live document and presence, independent of the transport. Every client
 * update is checked before it is applied (clients edit file texts; only the workspace's
 * operations change the set of files), every applied update is broadcast once and handed to
 * `onUpdate` for storage; awareness entries may only be set by the connection that owns
 * them and always carry that connection's real user.
 *
 * The Y.Doc is built when something first needs it (a client's change, a workspace operation
 * or read, a compaction): until then clients are served from the stored bytes, since
 * building a long history's document costs far more (160-410 ms for 1 MB) than sending it.
 * After a quiet spell (`rest`) a small document is let go again: joiners, returning clients
 * and awareness are still served from the stored bytes, and the next edit, workspace
 * operation, run or git read rebuilds it (a few ms: see liveDocument.ts).
 */
export class Room {
  private readonly awareness = new AwarenessStore();
  /** The document was created or migrated on load: store it before anyone edits it. */
  readonly isNew: boolean;
  /**
   * What creating or migrating it on load changed, for the update log (and so the history):
   * taken once by `takeCreated`, not kept for the room's life.
   */
  private created: Uint8Array | undefined;
  /** What a client that has nothing is sent: the document as the last snapshot plus a tail. */
  private readonly state: SyncState;
  /** The Y.Doc, built when needed and let go at rest. */
  private readonly document: LiveDocument;
  /**
   * Changes of ours captured but not yet sent: the document holds them and the stored bytes
   * do not, so it must not rest (a document rebuilt in that gap would lack them for good).
   */
  private changesInFlight = 0;
  /** Each connection and the one awareness client id it owns (bound by its first awareness). */
  private readonly connections = new Map<RoomConnection, { awarenessId: number | undefined }>();
  /**
   * The host ended the session: clients' edits are refused (the server's own changes, such
   * as an approved PR's merge, still apply). Undefined until the first join read it from the
   * database; from then only ending and reopening change it.
   */
  isEnded: boolean | undefined = undefined;
  /** Told when the document is built (its writer then rests it after the next quiet spell). */
  onBuilt: () => void = () => {};

  constructor(
    readonly sessionId: string,
    private readonly broadcast: RoomBroadcast,
    /** Stores an applied update; `author` is the participant whose client sent it (none: the server). */
    private readonly onUpdate: (update: Uint8Array, author?: string) => Promise<void>,
    stored: StoredDoc = { updates: [] },
    private readonly counts: UpdateCounts = { applied: 0, refused: 0, deferred: 0 },
    /** The cap on `bytes`: a client update that would pass it is refused whole. */
    private readonly maxBytes: number = WORKSPACE_LIMITS.maxDocumentBytes,
  ) {
    this.state = new SyncState(stored);
    this.document = new LiveDocument(this.state, () => this.onBuilt());
    // Our compaction wrote a snapshot with a summary, so its workspace is initialised.
    if (this.state.isSummarised) {
      this.isNew = false;
      this.created = undefined;
      return;
    }
    const { result, update } = this.capture(() => this.document.get().workspace.ensureInitialised());
    this.isNew = result;
    this.created = update;
    if (update) this.state.append(update);
  }

  /** What creating or migrating the document on load changed (see `created`), once. */
  takeCreated(): Uint8Array | undefined {
    const { created } = this;
    this.created = undefined;
    return created;
  }

  /** The live document, built from the stored state the first time it is asked for. */
  get doc(): Y.Doc {
    return this.document.get().doc;
  }

  get workspace(): Workspace {
    return this.document.get().workspace;
  }

  /** LiveDocument's `rest`, unless a change of ours is between its capture and its send. */
  rest(): void {
    if (this.changesInFlight === 0) this.document.rest();
  }

  /** See LiveDocument's `watch`: it follows the document across rests and rebuilds. */
  watch(onChange: () => void): () => void {
    return this.document.watch(onChange);
  }

  /**
   * Runs a change of the server's own and answers what it changed as one update. The
   * document has no lasting `update` listener: Yjs encodes a transaction's update only for
   * one, and a client's update is sent on as the client wrote it.
   */
  private capture<T>(operation: () => T): { result: T; update: Uint8Array | undefined } {
    const { doc } = this.document.get();
    const updates: Uint8Array[] = [];
    const collect = (update: Uint8Array) => updates.push(update);
    doc.on("update", collect);
    let result: T;
    try {
      result = operation();
    } finally {
      doc.off("update", collect);
    }
    const update = updates.length <= 1 ? updates[0] : Y.mergeUpdates(updates);
    return { result, update };
  }

  /**
   * Sends an update to everyone and adds it to what new clients get, in one step: a client
   * gets every update either in its step 2 or live, as it is in the room before its step 1.
   * `message` is the update as a sync message already, when there is one.
   */
  private send(update: Uint8Array, except: RoomConnection | undefined, message = encodeUpdate(update)) {
    this.state.append(update);
    // Compactions keep the tail short; should they fail for long, memory stays bounded anyway.
    if (this.state.tailLength > MAX_TAIL) this.state.install(this.snapshot());
    this.broadcast.sync(message, except);
  }

  /**
   * The whole document as one update, its state vector and summary, taken now (building the
   * document if needed), for `snapshotStored` once it is stored.
   */
  snapshot(): MarkedSnapshot {
    const { doc } = this.document.get();
    return {
      state: Y.encodeStateAsUpdate(doc),
      stateVector: Y.encodeStateVector(doc),
      summary: Y.encodeSnapshot(Y.snapshot(doc)),
      mark: this.state.mark(),
    };
  }

  /**
   * Applies updates another node stored for this session (two owners for a moment, see
   * repo.ts `compact`) and sends what they brought to everyone here: the next snapshot then
   * holds them, and these clients converge with that node's.
   */
  absorb(updates: readonly Uint8Array[]): void {
    if (updates.length === 0) return;
    const { update } = this.capture(() => {
      for (const stored of updates) Y.applyUpdate(this.doc, stored);
    });
    if (update) this.send(update, undefined);
  }

  /** A stored snapshot replaces what new clients were sent up to it: they get it as it is. */
  snapshotStored(snapshot: MarkedSnapshot): void {
    this.state.install(snapshot);
  }

  /**
   * Runs a workspace operation, stores what it changed (as `author`'s, when someone asked for
   * it), then sends it to everyone: a client never holds a file the server could lose in a
   * crash (it would refuse it back).
   */
  async change<T>(operation: (workspace: Workspace) => T, author?: string): Promise<T> {
    const { result, update } = this.capture(() => operation(this.workspace));
    if (!update) return result;
    this.changesInFlight += 1;
    await this.onUpdate(update, author);
    this.send(update, undefined);
    // Not in a finally: a change whose storing failed is in the document alone, which then
    // never rests (a rebuild would drop it).
    this.changesInFlight -= 1;
    return result;
  }

  get size(): number {
    return this.connections.size;
  }

  /**
   * The document's size as stored and sent to a joiner: the last snapshot and every update
   * since (deleted text included until the next compaction folds it away).
   */
  get bytes(): number {
    return this.state.bytes;
  }

  /** Whether the document has no room for one more file of the largest size. */
  get isFull(): boolean {
    return this.state.bytes + WORKSPACE_LIMITS.maxFileBytes > this.maxBytes;
  }

  /**
   * Adds a connection and tells it who is here. Sync starts with the client's step 1, which
   * we answer with our own step 1 and step 2: the client's answer to our step 1 is computed
   * after it counts itself connected, so no edit falls between its step 2 and its live updates.
   */
  join(connection: RoomConnection): void {
    this.connections.set(connection, { awarenessId: undefined });
    const states = this.awareness.encodeAll();
    if (states) connection.sendAwareness(states);
  }

  /** Removes a connection and the cursors it controlled. */
  leave(connection: RoomConnection): void {
    const owned = this.connections.get(connection)?.awarenessId;
    this.connections.delete(connection);
    const removal = owned !== undefined && this.awareness.remove([owned]);
    if (removal) this.broadcast.awareness(removal, connection);
  }

  /** Handles a sync message; throws a DomainError and changes nothing when it is refused. */
  receiveSync(connection: RoomConnection, message: Uint8Array): void {
    this.assertMember(connection);
    let parsed: ReturnType<typeof checkSyncMessage>;
    try {
      // A step 2 of nothing (a new joiner's answer to our step 1), or one that is our own delete
      // set as we sent it (a returning client that holds what we hold): nothing to read.
      const framed = readSyncMessage(message);
      if (framed.type !== SYNC_STEP1 && isEmptyUpdate(framed.update)) return;
      if (!this.document.isBuilt && framed.type !== SYNC_STEP1 && this.state.holdsByBytes(framed.update))
        return;
      parsed = checkSyncMessage(framed);
    } catch (error) {
      this.counts.refused += 1;
      throw new DomainError("invalid_message", `malformed sync message: ${String(error)}`);
    }
    if (parsed.type === SYNC_STEP1) {
      for (const answer of this.answerStep1(parsed.stateVector)) connection.sendSync(answer);
      return;
    }
    // A client's step 2 usually brings nothing new: no need to build the document for it.
    const summary = this.document.isBuilt ? undefined : this.state.summary();
    if (summary && Y.snapshotContainsUpdate(summary, parsed.update)) return;
    let changes: boolean;
    try {
      changes = checkClientUpdate(this.doc, this.workspace, parsed.decoded);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      // Builds on what we lack (a lost or reordered message): ask for everything we lack.
      if (!error.details.missingContent) {
        this.counts.refused += 1;
        throw error;
      }
      this.counts.deferred += 1;
      connection.sendSync(encodeStep1(this.doc));
      return;
    }
    if (!changes) return;
    if (connection.isReadOnly?.()) {
      this.counts.refused += 1;
      throw new DomainError("read_only", ROLE_MESSAGES.readOnly);
    }
    if (this.isEnded) {
      this.counts.refused += 1;
      throw new DomainError("session_ended", SESSION_ENDED_MESSAGE);
    }
    // Text limits do not bound Yjs's bookkeeping (a character per item, deleted items): this does.
    if (this.state.bytes + parsed.update.byteLength > this.maxBytes) {
      this.counts.refused += 1;
      throw new DomainError("update_refused", WORKSPACE_MESSAGES.documentTooLarge);
    }
    // The guard let through only what applies whole (nothing pending): the client's bytes
    // are what changed, plus at most what we already had, which every receiver skips.
    Y.applyUpdate(this.doc, parsed.update, connection);
    this.counts.applied += 1;
    this.send(parsed.update, connection, parsed.type === SYNC_UPDATE ? message : undefined);
    void this.onUpdate(parsed.update, connection.user.id);
  }

  /**
   * Our step 1, then step 2, for a client's step 1. Our step 1 goes first, as Hocuspocus sends
   * it: the client answers it from what it held before our step 2 (a new joiner: nothing, an
   * empty step 2), not after applying the whole document, when its answer would be its whole
   * delete set (for a long history, 100+ kB encoded by the client and sent back for nothing).
   * A client that has nothing (a first load) gets the stored bytes as they are; one that has
   * something gets what it lacks, from the document if it is built, else cut from the stored
   * bytes.
   */
  private answerStep1(stateVector: Uint8Array): Uint8Array[] {
    const hasNothing = Y.decodeStateVector(stateVector).size === 0;
    const vector = this.document.isBuilt ? undefined : this.state.vector();
    if (vector) {
      return [syncMessage(SYNC_STEP1, vector), ...this.state.messages(hasNothing ? undefined : stateVector)];
    }
    const { doc } = this.document.get();
    const step1 = encodeStep1(doc);
    return [step1, ...(hasNothing ? this.state.messages(undefined) : [encodeStep2(doc, stateVector)])];
  }

  /**
   * Handles an awareness update: one state (at most 4 KiB of JSON), of the client id this
   * connection used first, which no other connection owns. Anything else is refused whole,
   * relayed to no one: one connection cannot fill everyone's editor with cursors.
   */
  receiveAwareness(connection: RoomConnection, message: Uint8Array): void {
    const owner = this.assertMember(connection);
    let entries: ReturnType<typeof decodeAwareness>;
    try {
      entries = decodeAwareness(message, 1);
    } catch (error) {
      throw new DomainError("invalid_message", `malformed awareness update: ${String(error)}`);
    }
    const [entry] = entries;
    if (!entry) return;
    if (owner.awarenessId === undefined && this.ownedByOther(connection, entry.clientId)) {
      throw new DomainError("update_refused", "that awareness client id belongs to someone else");
    }
    owner.awarenessId ??= entry.clientId;
    if (entry.clientId !== owner.awarenessId) {
      throw new DomainError("update_refused", "a connection sends the awareness of one client id only");
    }
    const bytes = this.awareness.apply(entries, connection.user, message);
    if (bytes) this.broadcast.awareness(bytes, connection);
  }

  /**
   * Asks a member for every update the room lacks (our step 1: its answer is a step 2 of the
   * difference), after one of its messages was dropped unread.
   */
  askForMissing(connection: RoomConnection): void {
    if (this.connections.has(connection)) connection.sendSync(encodeStep1(this.doc));
  }

  /** Text of the file at `path` (empty when there is none). */
  text(path: string): string {
    return this.workspace.read().find((f) => f.path === path)?.content ?? "";
  }

  /** Destroys the document for good (the room unloads). */
  destroy(): void {
    this.document.destroy();
  }

  private assertMember(connection: RoomConnection): { awarenessId: number | undefined } {
    const owner = this.connections.get(connection);
    if (!owner) throw new DomainError("invalid_message", "not in this session");
    return owner;
  }

  private ownedByOther(connection: RoomConnection, clientId: number): boolean {
    for (const [other, owner] of this.connections) {
      if (other !== connection && owner.awarenessId === clientId) return true;
    }
    return false;
  }
}
