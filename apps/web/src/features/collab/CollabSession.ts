import { CollabClient, type LaneRefusal } from "@ensemble/collab";
import { CONNECT_ERRORS, type Language } from "@ensemble/protocol";
import { IndexeddbPersistence } from "y-indexeddb";
import { Awareness } from "y-protocols/awareness";
import * as Y from "yjs";
import { type ChannelDef, type ChannelScope, Lifecycle } from "../../lib/sessionChannels";
import { SessionLink } from "../../lib/sessionLink";
import { createEditorSocket, type EditorSocket } from "../../lib/socket";
import { throttleAwareness } from "./awarenessThrottle";
import { forgetSession, offlineDbName, rememberSession } from "./offlineStore";
import { EditClock, type PeerState, PRESENCE_MS, readPeers, typistColor } from "./presence";
import { mirrorSessionEvents } from "./sessionEvents";
import { resetCollabStore, type SessionFailure, useCollabStore } from "./store";
import { WorkspaceChannel } from "./workspaceChannel";
import { YjsTransport } from "./yjsTransport";

/** How long a lost connection shows as CONNECTING before OFFLINE, while the browser is online. */
const RECONNECT_GRACE_MS = 3000;

export interface CollabSessionOptions {
  sessionId: string;
  token: string | null;
  /** Shown to others until the server stamps the real name; also seeds our colour. */
  userName: string;
  userId: string | null;
  /** The server refused our token: the owner of the token signs out (we then rejoin as guest). */
  onTokenRejected: () => void;
  /**
   * The server refused one of our updates (over a size limit): our copy holds text nobody
   * else has. The owner opens the session afresh from the server (our copy is cleared).
   */
  onRefused: (message: string) => void;
  /** A share link's key from the address (`?key=`): decides our role when we are new. */
  shareKey?: string | undefined;
  /** The features' channels this session makes, each once (see `channel`). */
  channels: readonly ChannelDef<unknown>[];
}

/** Our awareness `user`; once joined it carries the id and name the server stamps, so it is sent on as it is. */
function userField(name: string, colorKey: string, id?: string) {
  const color = typistColor(colorKey);
  return { name, color, colorLight: `${color}33`, ...(id === undefined ? {} : { id }) };
}

/**
 * One open editor session: the Yjs document of its files, our awareness, the socket that
 * syncs both, and an IndexedDB copy so edits survive going offline and reloading. Joins on
 * every (re)connect and resyncs; mirrors connection, people and language in useCollabStore.
 * The features' channels it is given subscribe to its lifecycle (joined, left, ended).
 */
export class CollabSession {
  readonly doc = new Y.Doc();
  readonly awareness = new Awareness(this.doc);
  /** The project's files: create, rename, delete, and the store's listing of them. */
  readonly files: WorkspaceChannel;
  private readonly socket: EditorSocket;
  private readonly link: SessionLink;
  private readonly lifecycle = new Lifecycle();
  private readonly channels = new Map<ChannelDef<unknown>, unknown>();
  private readonly client: CollabClient;
  private readonly yjs: YjsTransport;
  private readonly awarenessOut: ReturnType<typeof throttleAwareness>;
  private persistence: IndexeddbPersistence | null = null;
  private typingTimer: ReturnType<typeof setTimeout> | undefined;
  /** Bumped on every join and disconnect, so a late ack of an older connection is ignored. */
  private generation = 0;
  private offlineTimer: ReturnType<typeof setTimeout> | undefined;
  private isDestroyed = false;
  private editorReady = false;
  /** When we last edited (this machine's clock), or null. */
  lastLocalEdit: number | null = null;
  /** When each peer last edited, on our clock. */
  readonly edits = new EditClock();

  constructor(private readonly options: CollabSessionOptions) {
    this.socket = createEditorSocket(options.token, options.sessionId);
    this.link = new SessionLink(this.socket, options.sessionId);
    const scope: ChannelScope = {
      sessionId: options.sessionId,
      link: this.link,
      doc: this.doc,
      lifecycle: this.lifecycle,
      rejoin: () => this.join(),
    };
    for (const def of options.channels) this.channels.set(def, def.create(scope));
    this.files = new WorkspaceChannel(this.link, this.doc);
    this.yjs = new YjsTransport(this.link, {
      receiveSync: (message) => this.client.receiveSync(message),
      receiveAwareness: (message) => this.client.receiveAwareness(message),
      connected: () => this.client.connected(),
      disconnected: () => this.client.disconnected(),
      refused: (refusal) => this.handleRefusal(refusal),
    });
    this.awarenessOut = throttleAwareness(this.awareness, (message) => this.yjs.sendAwareness(message));
    this.client = new CollabClient(this.doc, this.awareness, {
      sendSync: (message) => this.yjs.sendSync(message),
      sendAwareness: () => this.awarenessOut.request(),
    });
    this.awareness.setLocalState({ user: userField(options.userName, options.userId ?? options.userName) });
    this.awareness.on("change", () => this.edits.observe(this.peers(), Date.now()));
  }

  get sessionId(): string {
    return this.options.sessionId;
  }

  /** The channel `def` made for this session; it must be one of the channels it was opened with. */
  channel<T>(def: ChannelDef<T>): T {
    if (!this.channels.has(def)) throw new Error(`This session was opened without the ${def.name} channel`);
    // The map holds what def.create made, so this entry is a T.
    return this.channels.get(def) as T;
  }

  /** Whether the editor is bound to the document (see setEditorReady). */
  get isEditorReady(): boolean {
    return this.editorReady;
  }

  /** The Y.Text of a workspace file by its id (ids never change; paths may). */
  fileText(id: string): Y.Text {
    return this.doc.getText(id);
  }

  /** The id of the file at `path`, if the workspace has one. */
  fileIdAt(path: string): string | undefined {
    return useCollabStore.getState().files.find((f) => f.path === path)?.id;
  }

  /** Tells the others which file we have open and where we look (follow mode, the tree's dots). */
  setViewing(file: string | null, top: number | null): void {
    const state = this.awareness.getLocalState();
    if (state === null || (state.file === file && state.top === top)) return;
    this.awareness.setLocalState({ ...state, file, top });
  }

  /** The other clients' awareness states, read defensively. */
  peers(): Map<number, PeerState> {
    return readPeers(this.awareness.getStates(), this.doc.clientID);
  }

  start(): void {
    resetCollabStore(this.sessionId);
    rememberSession(this.sessionId);
    this.openOfflineCopy();
    this.wireSocket();
    this.client.onSynced((isSynced) => {
      useCollabStore.setState((s) => ({ isSynced, hasDocument: s.hasDocument || isSynced }));
      if (isSynced) this.files.synced();
    });
    window.addEventListener("offline", this.handleOffline);
    window.addEventListener("online", this.handleOnline);
    this.files.watch();
    this.socket.connect();
  }

  destroy(): void {
    if (this.isDestroyed) return;
    this.isDestroyed = true;
    window.removeEventListener("offline", this.handleOffline);
    window.removeEventListener("online", this.handleOnline);
    clearTimeout(this.typingTimer);
    clearTimeout(this.offlineTimer);
    this.lifecycle.emit("ended", undefined);
    // Tells the others our cursor is gone before the socket closes.
    this.awareness.setLocalState(null);
    this.awarenessOut.cancel();
    this.client.destroy();
    this.socket.removeAllListeners();
    // socket.io drops events that arrive with a disconnect: close the lane (the server has
    // then applied what it carried), then leave, so the last keystrokes are applied before
    // the socket closes (the IndexedDB copy holds them anyway).
    const socket = this.socket;
    const laneClosed = this.yjs.close();
    // Offline, the request answers at once: nothing to wait for.
    const leave = () =>
      void this.link.request("leaveSession", this.sessionId).then(() => socket.disconnect());
    void Promise.race([laneClosed, new Promise((resolve) => setTimeout(resolve, 1000))]).then(leave);
    void this.persistence?.destroy();
    this.awareness.destroy();
    this.doc.destroy();
  }

  /** The editor reports whether it is bound to the document (for the e2e hook). */
  setEditorReady(isReady: boolean): void {
    this.editorReady = isReady;
  }

  /** Marks a local edit: others see us typing for 1.5 s and our label for 3 s. */
  noteLocalEdit(): void {
    const now = Date.now();
    this.lastLocalEdit = now;
    const state = this.awareness.getLocalState();
    if (state === null) return;
    this.awareness.setLocalState({ ...state, lastEdit: now, typing: true });
    clearTimeout(this.typingTimer);
    this.typingTimer = setTimeout(() => {
      if (this.awareness.getLocalState() !== null) this.awareness.setLocalStateField("typing", false);
    }, PRESENCE_MS.typing);
  }

  /** Switches everyone to `language`; switches back if refused. */
  async setLanguage(language: Language) {
    const previous = useCollabStore.getState().language;
    useCollabStore.setState({ language });
    const result = await this.link.request("languageUpdate", { sessionId: this.sessionId, language });
    if (!result.ok && useCollabStore.getState().language === language)
      useCollabStore.setState({ language: previous });
    return result;
  }

  /**
   * Host only: offers every participant the end dialog and ends the session on the server
   * (read-only until reopened); `reopen` makes it editable again.
   */
  endForEveryone() {
    return this.setEnded("sessionEnding");
  }

  reopen() {
    return this.setEnded("reopenSession");
  }

  private async setEnded(event: "sessionEnding" | "reopenSession") {
    const result = await this.link.request(event, { sessionId: this.sessionId });
    if (result.ok) useCollabStore.setState({ endedAt: result.data.endedAt });
    return result;
  }

  private openOfflineCopy(): void {
    if (typeof indexedDB === "undefined") {
      useCollabStore.setState({ isLocalLoaded: true });
      return;
    }
    const persistence = new IndexeddbPersistence(offlineDbName(this.sessionId), this.doc);
    this.persistence = persistence;
    void persistence.whenSynced.then(() => {
      if (this.isDestroyed) return;
      const hasLocalCopy = this.doc.store.clients.size > 0;
      useCollabStore.setState((s) => ({ isLocalLoaded: true, hasDocument: s.hasDocument || hasLocalCopy }));
    });
  }

  private wireSocket(): void {
    const { socket, client } = this;
    socket.on("connect", () => this.join());
    socket.on("disconnect", () => {
      this.generation++;
      this.files.disconnected();
      void this.yjs.close();
      client.disconnected();
      useCollabStore.setState({ isSynced: false });
      this.showDisconnected();
      this.lifecycle.emit("left", undefined);
    });
    socket.on("connect_error", (error) => {
      if (error.message === CONNECT_ERRORS.invalidToken) {
        this.options.onTokenRejected();
        return;
      }
      if (error.message === CONNECT_ERRORS.protocolMismatch) {
        this.fail({
          code: "protocol_mismatch",
          message: "Ensemble was updated. Reload the page to continue.",
        });
        return;
      }
      useCollabStore.setState({ status: "offline" });
      // A refusal by the server (not a network error) is not retried by socket.io.
      if (!socket.active) this.fail({ code: "refused", message: "The server refused the connection." });
    });
    mirrorSessionEvents(this.link);
    this.link.listen("socketError", (refusal) => this.handleRefusal(refusal));
  }

  private handleRefusal({ event, code, message }: LaneRefusal): void {
    console.warn(`Ensemble: the server refused ${event} (${code}): ${message}`);
    // An edit the server will never take (not allowed, or the session ended meanwhile).
    if (
      event === "yjsSync" &&
      (code === "update_refused" || code === "session_ended" || code === "read_only")
    )
      void this.discardLocalCopy(message);
  }

  /** Joins on each new connection: the server knows a reconnected socket as a new one. */
  private join(): void {
    const generation = ++this.generation;
    const { shareKey } = this.options;
    const request = shareKey ? { sessionId: this.sessionId, key: shareKey } : this.sessionId;
    const isCurrent = () => generation === this.generation && !this.isDestroyed;
    void this.link.request("joinSession", request).then(async (result) => {
      if (!isCurrent()) return;
      if (!result.ok) {
        const { code } = result.error;
        // No answer on a live connection: start over with a fresh one.
        if (code === "timeout") this.socket.disconnect().connect();
        // A locked session: we wait at its door, joined to nothing, until the host decides.
        else if (code === "session_locked") this.lifecycle.emit("heldInLobby", undefined);
        // Disconnected meanwhile: the next connection joins.
        else if (code !== "offline") this.fail(result.error);
        return;
      }
      const { self, participants, language, title, endedAt } = result.data;
      this.awareness.setLocalStateField("user", userField(self.name, self.id, self.id));
      useCollabStore.setState({ status: "connected", self, participants, language, title, endedAt });
      // File operations made offline reach the server before our document syncs: the text
      // typed in a file created offline then has a file to land in.
      const isReplayed = await this.files.replay(isCurrent);
      if (!isCurrent()) return;
      // No answer on a live connection: start over with a fresh one, the rest still queued.
      if (!isReplayed) {
        this.socket.disconnect().connect();
        return;
      }
      this.yjs.open(result.data.laneTicket, isCurrent);
      this.lifecycle.emit("joined", result.data);
    });
  }

  /** Our copy holds an edit the server refused: drop it and start again from the server's. */
  private async discardLocalCopy(message: string): Promise<void> {
    if (this.isDestroyed) return;
    this.files.forget();
    await this.persistence?.clearData();
    this.persistence = null;
    this.options.onRefused(message);
  }

  private fail(failure: SessionFailure): void {
    useCollabStore.setState({ failure, status: "offline" });
    this.socket.disconnect();
    if (failure.code === "not_found") {
      forgetSession(this.sessionId);
      this.files.forget();
      void this.persistence?.clearData();
      this.persistence = null;
    }
  }

  /**
   * A connection lost while the browser is online mostly comes back within 1-2 s (a cluster
   * node handed the session to another, or drained): CONNECTING until then, OFFLINE only once
   * it has not. Offline browsers say so at once.
   */
  private showDisconnected(): void {
    clearTimeout(this.offlineTimer);
    if (!navigator.onLine) {
      useCollabStore.setState({ status: "offline" });
      return;
    }
    useCollabStore.setState({ status: "connecting" });
    this.offlineTimer = setTimeout(() => {
      if (!this.isDestroyed && useCollabStore.getState().status === "connecting")
        useCollabStore.setState({ status: "offline" });
    }, RECONNECT_GRACE_MS);
  }

  // The browser knows at once when the network goes; the socket would wait for a missed ping.
  private readonly handleOffline = () => {
    this.socket.io.engine?.close();
  };

  private readonly handleOnline = () => {
    if (this.socket.connected || useCollabStore.getState().failure) return;
    this.socket.disconnect().connect();
  };
}
