import type { ClientPayloadInput, FileDiagnostics, LspDiagnostic } from "@ensemble/protocol";
import { defineChannel } from "../../../lib/sessionChannels";
import type { RequestEvent, RequestResult, SessionLink } from "../../../lib/sessionLink";

/** Where the session's C/C++ server is for us: not asked yet, starting, answering, or not to be had. */
export type ClangdState = "idle" | "loading" | "ready" | "unavailable" | "busy" | "failed";

/** A busy node is asked again after this long (its servers stop when idle). */
const BUSY_RETRY_MS = 30_000;

/** The events this channel sends: opening the server and the requests on positions. */
type ClangdEvent = Extract<
  RequestEvent,
  "lspOpen" | "lspCompletion" | "lspHover" | "lspDefinition" | "lspSignatureHelp" | "lspRename" | "lspFormat"
>;

/** What the channel uses of the session's link. */
export type ClangdLink = Pick<SessionLink, "sessionId" | "request" | "listen">;

/**
 * The session's shared C/C++ server (clangd on the node): made with every session, it does
 * nothing until a C or C++ file starts the service (`start`). Then it opens the server after
 * each join and keeps each file's last diagnostics, as broadcast to the session.
 */
export class ClangdChannel {
  private readonly diagnostics = new Map<string, LspDiagnostic[]>();
  private readonly listeners = new Set<() => void>();
  private isWanted = false;
  private retry: ReturnType<typeof setTimeout> | undefined;
  state: ClangdState = "idle";

  constructor(
    private readonly link: ClangdLink,
    onJoined: (handler: () => void) => void,
    onEnded: (handler: () => void) => void,
  ) {
    link.listen("lspDiagnostics", ({ files }) => this.replace(files));
    onJoined(() => {
      if (this.isWanted) void this.open();
    });
    onEnded(() => clearTimeout(this.retry));
  }

  /** Starts the session's server (once; again after each join). */
  start(): void {
    if (this.isWanted) return;
    this.isWanted = true;
    void this.open();
  }

  /** Every file's last diagnostics, by path. */
  get files(): ReadonlyMap<string, LspDiagnostic[]> {
    return this.diagnostics;
  }

  /** Calls `listener` when the state or any diagnostics change; returns its removal. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Sends one of the server's requests (parsed both ways by the catalogue). */
  request<E extends ClangdEvent>(event: E, payload: ClientPayloadInput<E>): Promise<RequestResult<E>> {
    return this.link.request(event, payload);
  }

  private async open(): Promise<void> {
    clearTimeout(this.retry);
    this.setState(this.state === "ready" ? "ready" : "loading");
    const opened = await this.link.request("lspOpen", { sessionId: this.link.sessionId, server: "clangd" });
    if (opened.ok) {
      this.diagnostics.clear();
      this.replace(opened.data.files);
      this.setState("ready");
      return;
    }
    // Quietly: the editor works as before, with word completion and Run's diagnostics.
    const code = opened.error.code;
    if (code === "language_server_busy") {
      this.setState("busy");
      this.retry = setTimeout(() => void this.open(), BUSY_RETRY_MS);
    } else if (code === "offline") this.setState("loading");
    else this.setState(code === "language_server_unavailable" ? "unavailable" : "failed");
  }

  /** A request found the server gone (busy or restarted elsewhere): open it again. */
  reopen(): void {
    if (this.isWanted && this.state !== "loading") void this.open();
  }

  private replace(files: FileDiagnostics[]) {
    for (const { path, diagnostics } of files) {
      if (diagnostics.length === 0) this.diagnostics.delete(path);
      else this.diagnostics.set(path, diagnostics);
    }
    this.notify();
  }

  private setState(state: ClangdState) {
    this.state = state;
    this.notify();
  }

  private notify() {
    for (const listener of this.listeners) listener();
  }
}

export const clangdChannel = defineChannel(
  "clangd",
  ({ link, lifecycle }) =>
    new ClangdChannel(
      link,
      (handler) => lifecycle.on("joined", handler),
      (handler) => lifecycle.on("ended", handler),
    ),
);
