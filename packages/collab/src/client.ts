import * as awarenessProtocol from "y-protocols/awareness";
import * as Y from "yjs";
import {
  encodeStep1,
  encodeStep2,
  encodeUpdate,
  MAX_WHOLE_SYNC_BYTES,
  readSyncMessage,
  SYNC_STEP1,
  SYNC_STEP2,
  splitSyncMessage,
} from "./messages";

/** How a client reaches the server; the socket.io binding and the test connector implement it. */
export interface ClientTransport {
  sendSync(message: Uint8Array): void;
  sendAwareness(message: Uint8Array): void;
}

/** Origin of changes that came from the server, so they are not echoed back. */
export const REMOTE_ORIGIN = Symbol("remote");

/**
 * The browser's half of Yjs sync over any transport. Call `connected()` once the session is
 * joined (and after every reconnect), pass received messages to `receiveSync` and
 * `receiveAwareness`. Local edits go out as updates while connected; after a reconnect the
 * step 1/step 2 exchange sends whatever the server missed, so offline edits merge. A message
 * larger than one socket message carries (a long offline session's step 2, a large paste)
 * goes as consecutive parts, which the server joins before it checks the whole.
 */
export class CollabClient {
  private isConnected = false;
  private isSynced = false;
  private readonly syncedListeners = new Set<(synced: boolean) => void>();

  constructor(
    readonly doc: Y.Doc,
    readonly awareness: awarenessProtocol.Awareness,
    private readonly transport: ClientTransport,
  ) {
    doc.on("update", this.handleDocUpdate);
    awareness.on("update", this.handleAwarenessUpdate);
  }

  get synced(): boolean {
    return this.isSynced;
  }

  /** Calls `listener` whenever the synced state changes; returns an unsubscribe. */
  onSynced(listener: (synced: boolean) => void): () => void {
    this.syncedListeners.add(listener);
    return () => this.syncedListeners.delete(listener);
  }

  connected(): void {
    this.isConnected = true;
    // The server answers with step 2 (what we lack) and its own step 1. Our answer to that is
    // computed from here on, while live updates already flow: offline edits cannot slip
    // between the two.
    this.sendSync(encodeStep1(this.doc));
    if (this.awareness.getLocalState() !== null) {
      this.transport.sendAwareness(
        awarenessProtocol.encodeAwarenessUpdate(this.awareness, [this.doc.clientID]),
      );
    }
  }

  disconnected(): void {
    this.isConnected = false;
    this.setSynced(false);
    // Others' cursors are stale once we cannot hear from them.
    const others = [...this.awareness.getStates().keys()].filter((id) => id !== this.doc.clientID);
    awarenessProtocol.removeAwarenessStates(this.awareness, others, REMOTE_ORIGIN);
  }

  receiveSync(message: Uint8Array): void {
    // The update is read once, by Yjs as it applies it.
    const parsed = readSyncMessage(message);
    if (parsed.type === SYNC_STEP1) {
      this.sendSync(encodeStep2(this.doc, parsed.stateVector));
      return;
    }
    Y.applyUpdate(this.doc, parsed.update, REMOTE_ORIGIN);
    if (parsed.type === SYNC_STEP2) this.setSynced(true);
  }

  receiveAwareness(message: Uint8Array): void {
    awarenessProtocol.applyAwarenessUpdate(this.awareness, message, REMOTE_ORIGIN);
  }

  destroy(): void {
    this.doc.off("update", this.handleDocUpdate);
    this.awareness.off("update", this.handleAwarenessUpdate);
    this.syncedListeners.clear();
  }

  private readonly handleDocUpdate = (update: Uint8Array, origin: unknown) => {
    if (origin !== REMOTE_ORIGIN && this.isConnected) this.sendSync(encodeUpdate(update));
  };

  private sendSync(message: Uint8Array): void {
    // A keystroke's update takes the first branch: nothing is allocated for it.
    if (message.byteLength <= MAX_WHOLE_SYNC_BYTES) this.transport.sendSync(message);
    else for (const part of splitSyncMessage(message)) this.transport.sendSync(part);
  }

  private readonly handleAwarenessUpdate = (
    changes: { added: number[]; updated: number[]; removed: number[] },
    origin: unknown,
  ) => {
    if (origin === REMOTE_ORIGIN || !this.isConnected) return;
    // Only our own state: the server takes no other (y-protocols also reports here the remote
    // states it dropped as outdated).
    const own = this.doc.clientID;
    if (![...changes.added, ...changes.updated, ...changes.removed].includes(own)) return;
    this.transport.sendAwareness(awarenessProtocol.encodeAwarenessUpdate(this.awareness, [own]));
  };

  private setSynced(synced: boolean) {
    if (synced === this.isSynced) return;
    this.isSynced = synced;
    for (const listener of this.syncedListeners) listener(synced);
  }
}
