import * as Y from "yjs";
import type { SyncState } from "./syncState";
import { Workspace } from "./workspace";

/**
 * The largest document (stored bytes) a room lets go when it rests: rebuilding it at the next
 * edit must cost a few ms. Y.applyUpdate of a snapshot of text typed character by character
 * with deletions, warm medians (AMD EPYC, 2 busy cores, Node 20, 2026-11-28): 4 kB 1.1 ms,
 * 64 kB 3.8 ms, 128 kB 5.7 ms, 192 kB 8.1 ms, 256 kB 15 ms, 1 MB (68k ops) 440 ms.
 */
export const MAX_RESTING_BYTES = 128 * 1024;

/**
 * A room's Y.Doc and its workspace, built from the stored state (`SyncState`) when something
 * first needs it and let go again at rest, with the watches that follow it across rebuilds.
 * Until it is built, and while it rests, the room serves clients from the stored bytes.
 */
export class LiveDocument {
  private built: { doc: Y.Doc; workspace: Workspace } | undefined;
  /** `afterTransaction` listeners of `watch`, attached to each document built. */
  private readonly watchers = new Set<(transaction: Y.Transaction) => void>();

  constructor(
    private readonly state: SyncState,
    /** Told each time the document is built: by an edit, or by a read that will not be followed by one. */
    private readonly onBuild: () => void = () => {},
  ) {}

  get isBuilt(): boolean {
    return this.built !== undefined;
  }

  /** The document and workspace, built from the stored state if they are not. */
  get(): { doc: Y.Doc; workspace: Workspace } {
    if (this.built) return this.built;
    // A rebuilt document takes a new client id, as Yjs gives every document: our changes after
    // a rest cost a few bytes of state vector, and no id is ever reused for structs the stored
    // bytes might lack.
    const doc = new Y.Doc({ gc: true });
    for (const update of this.state.updates()) Y.applyUpdate(doc, update);
    this.built = { doc, workspace: new Workspace(doc) };
    // Attached after the stored state is in (building is no change) and after the workspace's
    // own listener, as a watch added later is: a watcher sees the workspace's sizes current.
    for (const watcher of this.watchers) doc.on("afterTransaction", watcher);
    this.onBuild();
    return this.built;
  }

  /**
   * Lets the document go when the stored bytes hold all of it and rebuilding it is cheap: a
   * summarised snapshot was just installed with nothing sent since, and it is at most
   * MAX_RESTING_BYTES. Otherwise a no-op. The caller knows what the state cannot tell: that
   * no change of its own is between its capture and its send.
   */
  rest(): void {
    const { built, state } = this;
    if (!built || !state.isSummarised || state.tailLength > 0 || state.bytes > MAX_RESTING_BYTES) return;
    this.built = undefined;
    built.doc.destroy();
  }

  /**
   * Calls `onChange` after each transaction that changes the document (any file, from
   * anyone), across rests and rebuilds, until the returned stop is called.
   */
  watch(onChange: () => void): () => void {
    const watcher = (transaction: Y.Transaction) => {
      if (transaction.changed.size > 0) onChange();
    };
    this.watchers.add(watcher);
    this.built?.doc.on("afterTransaction", watcher);
    return () => {
      this.watchers.delete(watcher);
      this.built?.doc.off("afterTransaction", watcher);
    };
  }

  /** Destroys the document for good (the room unloads): `built` stays, so nothing rebuilds it. */
  destroy(): void {
    this.watchers.clear();
    this.built?.doc.destroy();
  }
}
