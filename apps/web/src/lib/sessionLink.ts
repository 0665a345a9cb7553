import {
  type Ack,
  CLIENT_EVENTS,
  type ClientAckData,
  type ClientEventName,
  type ClientPayloadInput,
  SERVER_EVENTS,
} from "@ensemble/protocol";
import { z } from "zod";
import type { EditorSocket } from "./socket";

type Catalogue = typeof CLIENT_EVENTS;

/** The browser's events the server acknowledges: sent with `request`. */
export type RequestEvent = {
  [E in ClientEventName]: Catalogue[E] extends { ack: z.ZodType } ? E : never;
}[ClientEventName];

/** The browser's events without an answer: sent with `send`. */
export type NoticeEvent = Exclude<ClientEventName, RequestEvent>;

export type ServerEventName = keyof typeof SERVER_EVENTS;

/** A server event's payload once parsed against the catalogue. */
export type ServerPayload<E extends ServerEventName> = z.output<(typeof SERVER_EVENTS)[E]>;

/**
 * What every request resolves with: the server's own ack shape, parsed. A failure carries the
 * server's code, or one of ours: `offline` (not sent), `timeout` (no answer in time),
 * `invalid_answer` (the ack failed the catalogue), `invalid_request` (our payload did).
 */
export type RequestResult<E extends RequestEvent> = Ack<ClientAckData<E>>;

export type LocalErrorCode = "offline" | "timeout" | "invalid_answer" | "invalid_request";

/** The words for our own failures; a request may say its own (see `request`'s `words`). */
export const LOCAL_ERRORS: Record<LocalErrorCode, string> = {
  offline: "You are offline. Try again when the connection is back.",
  timeout: "The server did not answer. Check your connection and try again.",
  invalid_answer: "Unexpected answer from the server",
  invalid_request: "Invalid request",
};

/**
 * How long each request waits for its answer. Runs and commands may queue on the server,
 * and git and pull requests wait on GitHub (spec §7); leaving is awaited while the tab closes.
 */
export const REQUEST_TIMEOUT_MS: Record<RequestEvent, number> = {
  joinSession: 15_000,
  leaveSession: 1000,
  languageUpdate: 15_000,
  sessionEnding: 15_000,
  reopenSession: 15_000,
  getSessionSettings: 10_000,
  setSessionSettings: 10_000,
  createFile: 15_000,
  renamePath: 15_000,
  deletePath: 15_000,
  restorePath: 15_000,
  runCode: 60_000,
  terminalCommand: 60_000,
  runInput: 10_000,
  closeRunInput: 10_000,
  stopRun: 10_000,
  setRunInputAccess: 10_000,
  gitOperation: 120_000,
  createPR: 120_000,
  reviewPR: 120_000,
  getPRDiff: 30_000,
  rtcReady: 10_000,
  rtcLeave: 10_000,
  sendChat: 10_000,
  getChatHistory: 10_000,
  setRole: 10_000,
  transferHost: 10_000,
  removeParticipant: 10_000,
  setLock: 10_000,
  lobbyDecision: 10_000,
  getShareLinks: 10_000,
  getReplayTimeline: 20_000,
  seekReplay: 20_000,
  restoreVersion: 20_000,
  // A language server's cold start (clangd parses the file's headers first) takes seconds.
  lspOpen: 20_000,
  lspCompletion: 10_000,
  lspHover: 10_000,
  lspDefinition: 10_000,
  lspSignatureHelp: 10_000,
  lspRename: 15_000,
  lspFormat: 15_000,
};

const FailureSchema = z.object({
  ok: z.literal(false),
  error: z.object({ code: z.string(), message: z.string() }),
});

/** A failure of our own making, in the result shape. */
function localFailure(code: LocalErrorCode, message: string = LOCAL_ERRORS[code]) {
  return { ok: false, error: { code, message } } as const;
}

// socket.io's typed emit and on cannot follow a generic event name: these two views are the
// one place they are widened; the catalogue types every call made through SessionLink.
type TimedEmit = {
  emit(event: string, payload: unknown, ack: (err: Error | null, ack: unknown) => void): void;
};
type LooseSocket = {
  emit(event: string, payload: unknown): void;
  on(event: string, listener: (payload: unknown) => void): void;
  off(event: string, listener: (payload: unknown) => void): void;
};

/**
 * One session's way over the editor's socket. `request` sends an acknowledged event and
 * resolves (never rejects) with its parsed result; `send` sends an event without an answer;
 * `listen` hands a server event to its handler once parsed against the catalogue.
 *
 * The offline rule: while the socket is disconnected nothing is sent, since socket.io would
 * buffer it and deliver it before our next join, where the server refuses it or, worse, runs
 * it late. A request resolves at once as `offline`; a notice is dropped (the next join
 * resends the state that matters).
 *
 * Server events that name another session (a late one from a session this socket left) are
 * dropped, as are payloads that fail their schema.
 */
export class SessionLink {
  constructor(
    private readonly socket: EditorSocket,
    readonly sessionId: string,
  ) {}

  get isConnected(): boolean {
    return this.socket.connected;
  }

  /**
   * Sends `event` and resolves with the server's answer parsed, or with our own failure; never
   * rejects. `words` replaces the message of our own failures where a feature says it better.
   */
  request<E extends RequestEvent>(
    event: E,
    payload: ClientPayloadInput<E>,
    words: Partial<Record<LocalErrorCode, string>> = {},
  ): Promise<RequestResult<E>> {
    if (!this.socket.connected) return Promise.resolve(localFailure("offline", words.offline));
    const { payload: payloadSchema, ack: ackSchema } = CLIENT_EVENTS[event];
    const checked = payloadSchema.safeParse(payload);
    if (!checked.success)
      return Promise.resolve(
        localFailure("invalid_request", words.invalid_request ?? checked.error.issues[0]?.message),
      );
    const timed = this.socket.timeout(REQUEST_TIMEOUT_MS[event]) as unknown as TimedEmit;
    return new Promise((resolve) => {
      // The payload goes as given (the schema only checked it): a transform must not change the wire.
      timed.emit(event, payload, (err, answer) =>
        resolve(err ? localFailure("timeout", words.timeout) : readAck<E>(ackSchema, answer, words)),
      );
    });
  }

  /** Sends an event without an answer; false when it was dropped (offline, or failing the catalogue). */
  send<E extends NoticeEvent>(event: E, payload: ClientPayloadInput<E>): boolean {
    if (!this.socket.connected) return false;
    const checked = CLIENT_EVENTS[event].payload.safeParse(payload);
    if (!checked.success) {
      console.warn(`Ensemble: did not send a malformed ${event}`, checked.error.issues);
      return false;
    }
    (this.socket as unknown as LooseSocket).emit(event, payload);
    return true;
  }

  /** Calls `handler` with each parsed `event` of this session; returns its removal. */
  listen<E extends ServerEventName>(event: E, handler: (payload: ServerPayload<E>) => void): () => void {
    const schema: z.ZodType = SERVER_EVENTS[event];
    const listener = (raw: unknown) => {
      const parsed = schema.safeParse(raw);
      if (!parsed.success) {
        console.warn(`Ensemble: dropped a malformed ${event}`, parsed.error.issues);
        return;
      }
      if (isOtherSession(parsed.data, this.sessionId)) return;
      // Parsed by the catalogue's schema for E, so it is E's payload.
      handler(parsed.data as ServerPayload<E>);
    };
    const socket = this.socket as unknown as LooseSocket;
    socket.on(event, listener);
    return () => socket.off(event, listener);
  }
}

function isOtherSession(payload: unknown, sessionId: string): boolean {
  return (
    typeof payload === "object" &&
    payload !== null &&
    "sessionId" in payload &&
    typeof payload.sessionId === "string" &&
    payload.sessionId !== sessionId
  );
}

function readAck<E extends RequestEvent>(
  schema: z.ZodType,
  answer: unknown,
  words: Partial<Record<LocalErrorCode, string>>,
): RequestResult<E> {
  const failure = FailureSchema.safeParse(answer);
  if (failure.success) return failure.data;
  const success = z.object({ ok: z.literal(true), data: schema }).safeParse(answer);
  if (!success.success) return localFailure("invalid_answer", words.invalid_answer);
  // The schema is the catalogue's ack for E, so its output is E's ack data.
  return { ok: true, data: success.data.data as ClientAckData<E> };
}
