import { filesMap, foldersMap, listWorkspace } from "@ensemble/collab";
import type { ClientPayloadInput, CreateFile, DeletePath, RenamePath } from "@ensemble/protocol";
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
  async createFile(payload: Omit<CreateFile, "sessionId">): Promise<string> {
    const path = await this.request("createFile", { sessionId: this.sessionId, ...payload });
    await this.whenWorkspace((has) => has(path));
    return path;
  }

  /** Resolves with the new path once our document holds it. */
  async renamePath(payload: Omit<RenamePath, "sessionId">): Promise<string> {
    const path = await this.request("renamePath", { sessionId: this.sessionId, ...payload });
    await this.whenWorkspace((has) => has(path));
    return path;
  }

  /** Resolves once our document no longer holds the path. */
  async deletePath(payload: Omit<DeletePath, "sessionId">): Promise<string> {
    const path = await this.request("deletePath", { sessionId: this.sessionId, ...payload });
    await this.whenWorkspace((has) => !has(path));
    return path;
  }

  /** A workspace operation: resolves with the path it ended at, rejects with what to show. */
  private async request<E extends WorkspaceEvent>(event: E, payload: ClientPayloadInput<E>): Promise<string> {
    const result = await this.link.request(event, payload);
    if (result.ok) return result.data.path;
    throw new Error(result.error.code === "offline" ? OFFLINE : result.error.message);
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
