import { filesMap, foldersMap, listWorkspace } from "@ensemble/collab";
import type { Ack, ClientPayloadInput, CreateFile, DeletePath, RenamePath } from "@ensemble/protocol";
import type * as Y from "yjs";
import { REQUEST_TIMEOUT_MS, type SessionLink } from "../../lib/sessionLink";
import { useCollabStore } from "./store";

type WorkspaceEvent = "createFile" | "renamePath" | "deletePath";

const OFFLINE = "You are offline. Files can be created, renamed and deleted when the connection is back.";

/**
 * The session's files over its socket: create, rename and delete (only the server changes the
 * set of files), each resolving once our document holds the change; and the store's mirror
 * of the document's files and folders.
 */
export class WorkspaceChannel {
  private readonly sessionId: string;

  constructor(
    private readonly link: SessionLink,
    private readonly doc: Y.Doc,
  ) {
    this.sessionId = link.sessionId;
  }

  /** Mirrors the workspace's files and folders in the store whenever the server changes them. */
  watch(): void {
    const publish = () => useCollabStore.setState(listWorkspace(this.doc));
    filesMap(this.doc).observe(publish);
    foldersMap(this.doc).observe(publish);
    publish();
  }

  /** Resolves with the created path once our document holds it. */
  createFile(payload: Omit<CreateFile, "sessionId">): Promise<Ack<string>> {
    return this.change("createFile", { sessionId: this.sessionId, ...payload }, true);
  }

  /** Resolves with the new path once our document holds it. */
  renamePath(payload: Omit<RenamePath, "sessionId">): Promise<Ack<string>> {
    return this.change("renamePath", { sessionId: this.sessionId, ...payload }, true);
  }

  /** Resolves once our document no longer holds the path. */
  deletePath(payload: Omit<DeletePath, "sessionId">): Promise<Ack<string>> {
    return this.change("deletePath", { sessionId: this.sessionId, ...payload }, false);
  }

  /** A workspace operation: the path it ended at once our document shows it (`isThere`) or not. */
  private async change<E extends WorkspaceEvent>(
    event: E,
    payload: ClientPayloadInput<E>,
    isThere: boolean,
  ): Promise<Ack<string>> {
    const result = await this.link.request(event, payload, { offline: OFFLINE });
    if (!result.ok) return result;
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
