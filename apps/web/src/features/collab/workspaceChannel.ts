import { filesMap, foldersMap, listWorkspace } from "@ensemble/collab";
import type { Ack, ClientPayloadInput, CreateFile, DeletePath, RenamePath } from "@ensemble/protocol";
import type * as Y from "yjs";
import { ackError, type EditorSocket } from "../../lib/socket";
import { useCollabStore } from "./store";

type WorkspaceEvent = "createFile" | "renamePath" | "deletePath";

/** How long a file operation may wait for its answer, and then for its change. */
const ACK_TIMEOUT_MS = 15_000;

/**
 * The session's files over its socket: create, rename and delete (only the server changes the
 * set of files), each resolving once our document holds the change; and the store's mirror
 * of the document's files and folders.
 */
export class WorkspaceChannel {
  constructor(
    private readonly socket: EditorSocket,
    private readonly sessionId: string,
    private readonly doc: Y.Doc,
  ) {}

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

  /** A workspace operation: resolves with the path it ended at, rejects with the server's message. */
  private request<E extends WorkspaceEvent>(event: E, payload: ClientPayloadInput<E>): Promise<string> {
    // socket.io's typed emit cannot follow a generic event name; the catalogue types the payload.
    const emit = this.socket.timeout(ACK_TIMEOUT_MS).emit as unknown as (
      event: E,
      payload: ClientPayloadInput<E>,
      ack: (err: Error | null, result: Ack<{ path: string }>) => void,
    ) => void;
    return new Promise((resolve, reject) => {
      if (!this.socket.connected) {
        reject(
          new Error(
            "You are offline. Files can be created, renamed and deleted when the connection is back.",
          ),
        );
        return;
      }
      emit.call(this.socket.timeout(ACK_TIMEOUT_MS), event, payload, (err, result) => {
        const message = ackError(err, result);
        if (message === null && result.ok) resolve(result.data.path);
        else reject(new Error(message ?? "Unexpected answer from the server"));
      });
    });
  }

  /**
   * Waits (at most ACK_TIMEOUT_MS) until our document's workspace passes `isDone`. A file
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
      const timer = setTimeout(finish, ACK_TIMEOUT_MS);
      filesMap(this.doc).observe(observer);
      foldersMap(this.doc).observe(observer);
    });
  }
}
