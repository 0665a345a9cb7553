import { filesMap, foldersMap, listWorkspace, type WorkspaceListing } from "@ensemble/collab";
import type { Ack, ClientPayloadInput, CreateFile, RenamePath } from "@ensemble/protocol";
import { toast } from "react-toastify/unstyled";
import type * as Y from "yjs";
import { z } from "zod";
import { REQUEST_TIMEOUT_MS, type SessionLink } from "../../lib/sessionLink";
import {
  alternativePath,
  applyPending,
  type Deletion,
  type PendingOp,
  PendingOpSchema,
  pendingProblem,
  remapPending,
} from "./pendingFiles";
import { useCollabStore } from "./store";
import { putBackTexts, restoreRequest } from "./undoDelete";

type WorkspaceEvent = "createFile" | "renamePath" | "deletePath" | "restorePath";

/** How often a file created offline tries another name when its own was taken meanwhile. */
const MAX_ALTERNATIVES = 20;

const storageKey = (sessionId: string) => `ensemble:pendingFiles:${sessionId}`;

/**
 * The session's files over its socket: create, rename, delete and undo of a delete (only the
 * server changes the set of files). Online, each resolves once our document holds the
 * change. Offline (or before the join has replayed what was queued) each is checked against
 * what we see, queued in localStorage and shown at once; the next join replays the queue on
 * the server before our document syncs, so a file created offline exists there before the
 * text typed in it arrives. The store mirrors the document's files with the queue applied.
 */
export class WorkspaceChannel {
  private readonly sessionId: string;
  /** Not yet sent, in order. */
  private pending: PendingOp[];
  /** Replayed, shown until the document holds them (our next sync). */
  private settling: PendingOp[] = [];
  /** Joined and replayed: operations go straight to the server. */
  private isLive = false;

  constructor(
    private readonly link: SessionLink,
    private readonly doc: Y.Doc,
  ) {
    this.sessionId = link.sessionId;
    this.pending = loadPending(this.sessionId);
  }

  /** Mirrors the workspace's files and folders in the store whenever the server changes them. */
  watch(): void {
    filesMap(this.doc).observe(this.publish);
    foldersMap(this.doc).observe(this.publish);
    this.publish();
  }

  /** The workspace as we show it: the document with the operations not yet in it. */
  listing(): WorkspaceListing {
    return applyPending(listWorkspace(this.doc), [...this.settling, ...this.pending]);
  }

  /** Whether file operations are queued for the next connection. */
  get hasPending(): boolean {
    return this.pending.length > 0;
  }

  /** Resolves with the created path once our document holds it (or the create is queued). */
  createFile(payload: Omit<CreateFile, "sessionId" | "id">): Promise<Ack<string>> {
    if (!this.isLive) {
      const op: PendingOp =
        payload.kind === "folder"
          ? { op: "create", kind: "folder", path: payload.path }
          : { op: "create", kind: "file", id: newFileId(), path: payload.path };
      return Promise.resolve(this.queue(op, payload.path));
    }
    return this.change("createFile", { sessionId: this.sessionId, ...payload }, true);
  }

  /** Resolves with the new path once our document holds it (or the rename is queued). */
  renamePath(payload: Omit<RenamePath, "sessionId">): Promise<Ack<string>> {
    if (!this.isLive) return Promise.resolve(this.queue({ op: "rename", ...payload }, payload.to));
    return this.change("renamePath", { sessionId: this.sessionId, ...payload }, true);
  }

  /**
   * Deletes a file or a folder; resolves, once our document no longer holds it (or the delete
   * is queued), with what it removed, for `undoDelete`.
   */
  async deletePath({ path }: { path: string }): Promise<Ack<Deletion>> {
    const deletion = this.capture(path);
    const result = this.isLive
      ? await this.change("deletePath", { sessionId: this.sessionId, path }, false)
      : this.queue({ op: "delete", path }, path);
    return result.ok ? { ok: true, data: deletion } : result;
  }

  /**
   * Brings back what a delete removed, under the same file ids with the text they had: a
   * delete still queued is simply dropped from the queue. The server restores the files
   * empty; once it has, their texts go back as our own edits (`putBackTexts`).
   */
  async undoDelete(deletion: Deletion): Promise<Ack<string>> {
    const queued = this.pending.findIndex((op) => op.op === "delete" && op.path === deletion.path);
    if (queued >= 0 && queued === this.pending.length - 1) {
      this.pending.splice(queued, 1);
      this.save();
      this.publish();
      return { ok: true, data: deletion.path };
    }
    if (!this.isLive) return this.queue({ op: "restore", deletion }, deletion.path);
    const request = { sessionId: this.sessionId, ...restoreRequest(deletion) };
    const result = await this.change("restorePath", request, true, () =>
      putBackTexts(this.doc, deletion.files),
    );
    // The connection went before the answer came: the restore may have landed, empty. Queued,
    // it is asked again on the next join (a restore the server already shows answers as the
    // first did), and the texts are written back then.
    if (!result.ok && result.error.code === "timeout" && !this.isLive) {
      this.pending.push({ op: "restore", deletion });
      this.save();
      this.publish();
      return { ok: true, data: deletion.path };
    }
    return result;
  }

  /** Our copy of the session is discarded (refused, or the session is gone): so is the queue. */
  forget(): void {
    this.pending = [];
    this.settling = [];
    this.save();
  }

  /** Our socket is gone: operations queue until the next join has replayed the queue. */
  disconnected(): void {
    this.isLive = false;
  }

  /**
   * Replays the queue on the server, in order, right after a join and before our document
   * syncs. Stops (keeping the rest) when the connection goes or an answer does not come;
   * says what the server refused. Resolves whether all of it was replayed.
   */
  async replay(isCurrent: () => boolean): Promise<boolean> {
    let renamed: string[] = [];
    while (this.pending.length > 0) {
      if (!isCurrent()) return false;
      const op = this.pending[0] as PendingOp;
      const sent = await this.send(op);
      if (!sent.result.ok && (sent.result.error.code === "offline" || sent.result.error.code === "timeout"))
        return false;
      this.pending.shift();
      // Into our document before it syncs: its step 2 then carries the texts to the server.
      if (op.op === "restore" && sent.result.ok) putBackTexts(this.doc, op.deletion.files);
      if (sent.landedAt && op.op === "create" && sent.landedAt !== op.path) {
        const from = op.path;
        const to = sent.landedAt;
        this.pending = this.pending.map((later) => remapPending(later, from, to));
        renamed = [...renamed, `"${from}" was created meanwhile: yours is "${to}".`];
        this.settling.push({ ...op, path: to });
      } else this.settling.push(op);
      this.save();
      if (!sent.result.ok) toast.error(`A change made offline was refused: ${sent.result.error.message}`);
    }
    for (const message of renamed) toast.info(message);
    if (isCurrent()) this.isLive = true;
    return true;
  }

  /** Our document has caught up with the server: what was replayed is in it now. */
  synced(): void {
    if (this.settling.length === 0) return;
    this.settling = [];
    this.publish();
  }

  private readonly publish = () => useCollabStore.setState(this.listing());

  private queue(op: PendingOp, path: string): Ack<string> {
    const problem = pendingProblem(this.listing(), op);
    if (problem) return { ok: false, error: { code: "conflict", message: problem } };
    this.pending.push(op);
    this.save();
    this.publish();
    return { ok: true, data: path };
  }

  /** Sends one queued operation; a file whose path was taken meanwhile tries `name (2).ext`, … */
  private async send(op: PendingOp): Promise<{ result: Ack<unknown>; landedAt?: string }> {
    const { sessionId } = this;
    switch (op.op) {
      case "create": {
        if (op.kind === "folder") {
          const result = await this.link.request("createFile", { sessionId, path: op.path, kind: "folder" });
          // Someone made the same folder meanwhile: it is there, as wanted.
          return {
            result: !result.ok && result.error.code === "conflict" ? { ok: true, data: null } : result,
          };
        }
        for (let attempt = 1; attempt <= MAX_ALTERNATIVES; attempt++) {
          const path = attempt === 1 ? op.path : alternativePath(op.path, attempt);
          const result = await this.link.request("createFile", { sessionId, path, kind: "file", id: op.id });
          // A conflict may also be our own id, taken by an earlier attempt whose answer was
          // lost: the attempt at that path answers as the first did.
          if (result.ok || result.error.code !== "conflict")
            return { result, landedAt: result.ok ? result.data.path : undefined };
        }
        return {
          result: { ok: false, error: { code: "conflict", message: `"${op.path}" already exists.` } },
        };
      }
      case "rename":
        return { result: await this.link.request("renamePath", { sessionId, from: op.from, to: op.to }) };
      case "delete": {
        const result = await this.link.request("deletePath", { sessionId, path: op.path });
        // Gone already (someone deleted or moved it meanwhile): nothing of ours is lost.
        return {
          result: !result.ok && result.error.code === "not_found" ? { ok: true, data: null } : result,
        };
      }
      case "restore":
        return {
          result: await this.link.request("restorePath", { sessionId, ...restoreRequest(op.deletion) }),
        };
    }
  }

  /** The files (with their text) and explicit folders at or under `path`, as we see them now. */
  private capture(path: string): Deletion {
    const inside = (p: string) => p === path || p.startsWith(`${path}/`);
    const files = this.listing()
      .files.filter((f) => inside(f.path))
      .map((f) => ({ ...f, content: this.doc.getText(f.id).toString() }));
    const folders = [...foldersMap(this.doc).keys()].filter(inside);
    return { path, files, folders };
  }

  private save(): void {
    try {
      if (this.pending.length === 0) localStorage.removeItem(storageKey(this.sessionId));
      else localStorage.setItem(storageKey(this.sessionId), JSON.stringify(this.pending));
    } catch {
      // Storage full or blocked: the queue still lives in memory until the next join.
    }
  }

  /**
   * A workspace operation: the path it ended at once our document shows it (`isThere`) or not.
   * `accepted` runs as soon as the server has made the change, before our document shows it.
   */
  private async change<E extends WorkspaceEvent>(
    event: E,
    payload: ClientPayloadInput<E>,
    isThere: boolean,
    accepted?: () => void,
  ): Promise<Ack<string>> {
    const result = await this.link.request(event, payload);
    if (!result.ok) return result;
    // At once, not after the wait: what it writes is then in our document (and its offline
    // copy) should the tab close before the change reaches us.
    accepted?.();
    const { path } = result.data;
    await this.whenWorkspace((has) => has(path) === isThere);
    return { ok: true, data: path };
  }

  /**
   * Waits (at most as long as the operation's answer may take) until our document's workspace passes `isDone`. A file
   * operation's answer comes over socket.io, its change over the Yjs lane, a second
   * connection: the answer can arrive first.
   */
  private whenWorkspace(isDone: (has: (path: string) => boolean) => boolean): Promise<void> {
    const check = () => {
      const { files, folders } = listWorkspace(this.doc);
      return isDone((path) => files.some((f) => f.path === path) || folders.includes(path));
    };
    if (check()) return Promise.resolve();
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        filesMap(this.doc).unobserve(observer);
        foldersMap(this.doc).unobserve(observer);
        resolve();
      };
      const observer = () => {
        if (check()) finish();
      };
      const timer = setTimeout(finish, REQUEST_TIMEOUT_MS.createFile);
      filesMap(this.doc).observe(observer);
      foldersMap(this.doc).observe(observer);
    });
  }
}

/** A file id as the server makes them (12 random bytes, base64url). */
function newFileId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  const base64 = btoa(String.fromCharCode(...bytes));
  return `f-${base64.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")}`;
}

function loadPending(sessionId: string): PendingOp[] {
  try {
    const parsed = z
      .array(PendingOpSchema)
      .safeParse(JSON.parse(localStorage.getItem(storageKey(sessionId)) ?? "[]"));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}
