import { z } from "zod";
import { AccountDeletedSchema } from "./account";
import {
  AudioToggledSchema,
  AudioToggleOutSchema,
  RtcCandidateOutSchema,
  RtcCandidateSchema,
  RtcDescriptionOutSchema,
  RtcDescriptionSchema,
  RtcJoinedSchema,
  RtcNewParticipantSchema,
  RtcParticipantLeftSchema,
  RtcReadySchema,
  RtcRequestOutSchema,
  RtcRequestSchema,
  ScreenSharingSchema,
  VideoToggledSchema,
  VideoToggleOutSchema,
} from "./calls";
import {
  ChatBroadcastSchema,
  ChatHistoryRequestSchema,
  ChatHistorySchema,
  ChatMessageSchema,
  SendChatSchema,
} from "./chat";
import { RunDiagnosticsSchema } from "./diagnostics/index";
import { ErrorCodeSchema } from "./errors";
import {
  ExecutionResultSchema,
  RunCodeAckSchema,
  RunCodeSchema,
  RunInputAccessSchema,
  RunInputSchema,
  RunStateUpdateSchema,
  TerminalCommandAckSchema,
  TerminalCommandSchema,
  TerminalHistorySchema,
  TerminalUpdateSchema,
} from "./execution";
import { GitOutcomeSchema, GitRequestSchema, GitStatusUpdateSchema } from "./git";
import {
  CompletionAnswerSchema,
  EditsAnswerSchema,
  FormatRequestSchema,
  HoverAnswerSchema,
  LanguageServerOpenedSchema,
  LocationsAnswerSchema,
  LspDiagnosticsSchema,
  OpenLanguageServerSchema,
  PositionRequestSchema,
  RenameRequestSchema,
  SignatureAnswerSchema,
} from "./languageServers";
import { LanguageSchema } from "./languages/index";
import {
  CreatePrAckSchema,
  CreatePrSchema,
  PrDiffSchema,
  PrRefSchema,
  PrReviewedSchema,
  PrSyncSchema,
  ReviewAckSchema,
  ReviewPrSchema,
} from "./pulls";
import {
  ReplayFrameSchema,
  ReplayTimelineRequestSchema,
  ReplayTimelineSchema,
  RestoreVersionAckSchema,
  RestoreVersionSchema,
  SeekReplaySchema,
} from "./replay";
import {
  JoinRequestSchema,
  LobbyDecisionSchema,
  LobbyEntrySchema,
  LobbyUpdateSchema,
  LockStateSchema,
  ParticipantRefSchema,
  RoleChangedSchema,
  SessionNoticeSchema,
  SetLockSchema,
  SetRoleSchema,
  ShareKeysSchema,
} from "./roles";
import { SessionSettingsSchema, SetSessionSettingsSchema } from "./sessionSettings";
import { RoleSchema, SessionIdSchema } from "./sessions";
import {
  CreateFileSchema,
  DeletePathSchema,
  PathAckSchema,
  RenamePathSchema,
  RestorePathSchema,
} from "./workspace";

/** Someone connected to a session, as every participant sees them. */
export const PresenceSchema = z.object({
  /** The user id, or `guest-…` for an anonymous guest; stable for the socket's life. */
  id: z.string(),
  name: z.string(),
  isHost: z.boolean(),
  isGuest: z.boolean(),
  /** host, editor or viewer; `isHost` stays for the spec's readers. */
  role: RoleSchema,
});
export type Presence = z.infer<typeof PresenceSchema>;

export const SessionRefSchema = z.object({ sessionId: SessionIdSchema });

export const LanguageUpdateSchema = z.object({ sessionId: SessionIdSchema, language: LanguageSchema });
export type LanguageUpdate = z.infer<typeof LanguageUpdateSchema>;

export const JoinedSchema = z.object({
  sessionId: z.string(),
  self: PresenceSchema,
  participants: z.array(PresenceSchema),
  language: LanguageSchema,
  title: z.string(),
  /** When the host ended the session (read-only until reopened), or null while it is open. */
  endedAt: z.string().nullable(),
  /** A one-time ticket to open this connection's Yjs lane (see @ensemble/collab's lane). */
  laneTicket: z.string(),
  /** Whether newcomers wait in the lobby. */
  isLocked: z.boolean(),
  /** Who waits in the lobby now (the host's join only; empty for anyone else). */
  waiting: z.array(LobbyEntrySchema),
});
export type Joined = z.infer<typeof JoinedSchema>;

/** What every acknowledged socket event answers. */
export type Ack<T> = { ok: true; data: T } | { ok: false; error: { code: string; message: string } };

/** Largest Yjs message (sync or awareness) the server accepts, in bytes. */
export const MAX_YJS_MESSAGE_BYTES = 512 * 1024;

/**
 * A binary Yjs message (y-protocols sync or awareness encoding) under the size cap. On the
 * wire it is msgpack `bin`: Node decodes that as a Buffer, browsers as an ArrayBuffer.
 */
export const YjsMessageSchema = z
  .custom<Uint8Array | ArrayBuffer>((value) => value instanceof Uint8Array || value instanceof ArrayBuffer, {
    error: "expected a binary message",
  })
  .transform((value) => (value instanceof Uint8Array ? value : new Uint8Array(value)))
  .refine((m) => m.byteLength > 0, "empty message")
  .refine((m) => m.byteLength <= MAX_YJS_MESSAGE_BYTES, `message over ${MAX_YJS_MESSAGE_BYTES} bytes`);

/** Sent by the server when a message is refused; nothing changed because of it. */
export const SocketErrorSchema = z.object({
  event: z.string(),
  code: ErrorCodeSchema,
  message: z.string(),
});
export type SocketError = z.infer<typeof SocketErrorSchema>;

const SessionEndingSchema = z.object({ sessionId: SessionIdSchema });

/** Whether the session is ended (an archive, read-only) and since when. */
export const SessionStateSchema = z.object({ sessionId: SessionIdSchema, endedAt: z.string().nullable() });
export type SessionState = z.infer<typeof SessionStateSchema>;

/**
 * How the server meters an event per connection (default `event`): `command` runs something
 * for everyone (a tighter bucket), `signal` is call signalling (ICE candidates come in
 * bursts), `stream` is Yjs, bounded by the document and awareness caps instead, since an
 * asynchronous count per keystroke would slow the hot path.
 */
export type EventRate = "event" | "command" | "signal" | "stream";

/**
 * Every event the browser sends: its payload schema, when it is acknowledged the schema of
 * the ack's data, and its rate class when not `event`. Yjs messages carry no session id: a
 * socket edits the one session it joined.
 */
export const CLIENT_EVENTS = {
  /**
   * Joins by the bare id or with a share link's key. Refused as `session_locked` while the
   * session is locked for a newcomer, who then waits in the lobby for `lobbyAdmitted` (join
   * again) or `lobbyRefused`.
   */
  joinSession: { payload: z.union([SessionIdSchema, JoinRequestSchema]), ack: JoinedSchema },
  /**
   * Leaves the joined session. socket.io drops events that arrive in the same tick as a
   * disconnect, so a client that is about to disconnect awaits this ack first: by then every
   * update it sent before has been applied.
   */
  leaveSession: { payload: SessionIdSchema, ack: z.null() },
  getParticipants: { payload: SessionIdSchema },
  getLanguageState: { payload: SessionIdSchema },
  languageUpdate: { payload: LanguageUpdateSchema, ack: LanguageUpdateSchema },
  /**
   * Host only: tells everyone the session is ending (they get the end dialog), then ends it
   * on the server: it becomes read-only for everyone and each receives `sessionState`.
   */
  sessionEnding: { payload: SessionEndingSchema, ack: SessionStateSchema },
  /** Host only: makes an ended session editable again; everyone receives `sessionState`. */
  reopenSession: { payload: SessionRefSchema, ack: SessionStateSchema },
  /** The session's settings (sessionSettings.ts), asked after each join. */
  getSessionSettings: { payload: SessionRefSchema, ack: SessionSettingsSchema },
  /** Host only: changes the session's settings; stored, then everyone receives `sessionSettings`. */
  setSessionSettings: { payload: SetSessionSettingsSchema, ack: SessionSettingsSchema },
  yjsSync: { payload: YjsMessageSchema, rate: "stream" },
  yjsAwareness: { payload: YjsMessageSchema, rate: "stream" },
  /**
   * Workspace operations: the only way the set of files changes. The server checks the path
   * and the limits, applies the change to the document, stores it, and everyone receives it
   * as a Yjs update before the sender's ack.
   */
  createFile: { payload: CreateFileSchema, ack: PathAckSchema },
  renamePath: { payload: RenamePathSchema, ack: PathAckSchema },
  deletePath: { payload: DeletePathSchema, ack: PathAckSchema },
  /** Undo of a delete: the files come back under their ids, with the text they had. */
  restorePath: { payload: RestorePathSchema, ack: PathAckSchema },
  /**
   * Runs the session's project from the sender's open file (or the language's main file);
   * everyone in the session, the sender included, sees the input line and the result once.
   */
  runCode: { payload: RunCodeSchema, ack: RunCodeAckSchema, rate: "command" },
  /** A line typed in the shared terminal (the registered commands); the server answers for everyone. */
  terminalCommand: { payload: TerminalCommandSchema, ack: TerminalCommandAckSchema, rate: "command" },
  /** Asks for `terminalHistory`, then the session's `runStateUpdate` and `runDiagnostics`. */
  getTerminalHistory: { payload: SessionIdSchema },
  /**
   * A line typed into the running program's stdin (the starter, or every editor when the
   * starter allows it); everyone sees it as an input entry. Bounded per line and per run.
   */
  runInput: { payload: RunInputSchema, ack: z.null(), rate: "command" },
  /** Ctrl+D: closes the running program's stdin (same permission as runInput). */
  closeRunInput: { payload: SessionRefSchema, ack: z.null(), rate: "command" },
  /** Stop or Ctrl+C (any editor): SIGINT to the program, its tree killed 2 s later; the result says who. */
  stopRun: { payload: SessionRefSchema, ack: z.null(), rate: "command" },
  /** The starter only: whether every editor may type into the run; everyone gets `runStateUpdate`. */
  setRunInputAccess: { payload: RunInputAccessSchema, ack: z.null(), rate: "command" },
  /**
   * One version-control operation (host only, checked on the server). Answers the outcome
   * with the repository's status and branches; everyone then receives `gitStatus`.
   */
  gitOperation: { payload: GitRequestSchema, ack: GitOutcomeSchema },
  /**
   * Proposes the workspace as it is now as a pull request (any participant): its files are
   * committed onto a new branch from the target's head; everyone receives `pr-added`.
   */
  createPR: { payload: CreatePrSchema, ack: CreatePrAckSchema },
  /** The host approves, rejects or requests changes; the server refuses anyone else. */
  reviewPR: { payload: ReviewPrSchema, ack: ReviewAckSchema },
  /** Asks for every PR of the session again, as a `prSync` of type `pr-sync`. */
  requestPRSync: { payload: SessionIdSchema },
  /** A PR's changed files with their text on both sides (`git diff target...source`). */
  getPRDiff: { payload: PrRefSchema, ack: PrDiffSchema },
  /**
   * Calls (see calls.ts). rtcReady joins this tab to the session's call (refused when full)
   * and answers its peer id, who is there and the ICE servers; everyone there receives
   * `rtcNewParticipant`. rtcLeave (or leaving the session) takes it out again.
   */
  rtcReady: { payload: RtcReadySchema, ack: RtcJoinedSchema },
  rtcLeave: { payload: SessionRefSchema, ack: z.null() },
  /** Relayed to one peer of the same call, stamped with the sender's peer id. */
  rtcOffer: { payload: RtcDescriptionOutSchema, rate: "signal" },
  rtcAnswer: { payload: RtcDescriptionOutSchema, rate: "signal" },
  rtcIceCandidate: { payload: RtcCandidateOutSchema, rate: "signal" },
  /** Asks one peer to start the pair's connection over (after it was recreated). */
  rtcRequestConnection: { payload: RtcRequestOutSchema, rate: "signal" },
  /** The sender's own media state, shown to everyone in the call. */
  audioToggled: { payload: AudioToggleOutSchema },
  videoToggled: { payload: VideoToggleOutSchema },
  screenSharingStarted: { payload: SessionRefSchema },
  screenSharingEnded: { payload: SessionRefSchema },
  /**
   * A chat message to the session (any participant, while the session is open); answers the
   * stored message, which everyone, the sender included, also receives as `chatMessage`.
   */
  sendChat: { payload: SendChatSchema, ack: ChatMessageSchema, rate: "command" },
  /** The newest page of the session's chat, or the page before a message id. */
  getChatHistory: { payload: ChatHistoryRequestSchema, ack: ChatHistorySchema },
  /** Host controls (roles.ts), each refused as `forbidden` for anyone but the host. */
  setRole: { payload: SetRoleSchema, ack: RoleChangedSchema },
  transferHost: { payload: ParticipantRefSchema, ack: RoleChangedSchema },
  removeParticipant: { payload: ParticipantRefSchema, ack: z.null() },
  setLock: { payload: SetLockSchema, ack: LockStateSchema },
  lobbyDecision: { payload: LobbyDecisionSchema, ack: z.null() },
  /** The keys of the "can edit" and "can view" links (made on first ask). */
  getShareLinks: { payload: SessionRefSchema, ack: ShareKeysSchema },
  /**
   * Replay (replay.ts), for participants, ended sessions included: the timeline, then the
   * project at any moment of it. Restoring a moment is the host's, and an edit like any other
   * (refused once the session ended); everyone receives it as Yjs updates.
   */
  getReplayTimeline: { payload: ReplayTimelineRequestSchema, ack: ReplayTimelineSchema, rate: "command" },
  /** Metered as a command: one builds a document (up to tens of ms), so the browser sends one at a time. */
  seekReplay: { payload: SeekReplaySchema, ack: ReplayFrameSchema, rate: "command" },
  restoreVersion: { payload: RestoreVersionSchema, ack: RestoreVersionAckSchema, rate: "command" },
  // Shared language servers (languageServers.ts): opening starts the session's server and
  // answers what it reported so far; each request is answered on the text it names or `stale`.
  lspOpen: { payload: OpenLanguageServerSchema, ack: LanguageServerOpenedSchema },
  lspCompletion: { payload: PositionRequestSchema, ack: CompletionAnswerSchema },
  lspHover: { payload: PositionRequestSchema, ack: HoverAnswerSchema },
  lspDefinition: { payload: PositionRequestSchema, ack: LocationsAnswerSchema },
  lspSignatureHelp: { payload: PositionRequestSchema, ack: SignatureAnswerSchema },
  /** An edit: refused for viewers. The asker applies the answer through the shared document. */
  lspRename: { payload: RenameRequestSchema, ack: EditsAnswerSchema, rate: "command" },
  /** An edit: refused for viewers. */
  lspFormat: { payload: FormatRequestSchema, ack: EditsAnswerSchema, rate: "command" },
} as const satisfies Record<string, { payload: z.ZodType; ack?: z.ZodType; rate?: EventRate }>;

/** Every event the server sends, with its payload schema. */
export const SERVER_EVENTS = {
  participantsList: z.array(PresenceSchema),
  participantJoined: PresenceSchema,
  participantLeft: z.string(),
  languageUpdate: LanguageUpdateSchema,
  sessionEnding: SessionEndingSchema,
  /** The session was ended or reopened by its host. */
  sessionState: SessionStateSchema,
  /** The host deleted the session: everything of it is gone; everyone in it goes home. */
  sessionDeleted: SessionEndingSchema,
  /** The host changed the session's settings. */
  sessionSettings: SessionSettingsSchema,
  yjsSync: YjsMessageSchema,
  yjsAwareness: YjsMessageSchema,
  socketError: SocketErrorSchema,
  executionResult: ExecutionResultSchema,
  terminalUpdate: TerminalUpdateSchema,
  terminalHistory: TerminalHistorySchema,
  runStateUpdate: RunStateUpdateSchema,
  /**
   * What the last run reported on the workspace's files (compile errors, the traceback's
   * line), for everyone; an empty list when a run starts clears the previous ones.
   */
  runDiagnostics: RunDiagnosticsSchema,
  gitStatus: GitStatusUpdateSchema,
  prSync: PrSyncSchema,
  /** To a PR's author: the host reviewed it (with the comment). */
  prReviewed: PrReviewedSchema,
  rtcNewParticipant: RtcNewParticipantSchema,
  rtcParticipantLeft: RtcParticipantLeftSchema,
  rtcOffer: RtcDescriptionSchema,
  rtcAnswer: RtcDescriptionSchema,
  rtcIceCandidate: RtcCandidateSchema,
  rtcRequestConnection: RtcRequestSchema,
  audioToggled: AudioToggledSchema,
  videoToggled: VideoToggledSchema,
  screenSharingStarted: ScreenSharingSchema,
  screenSharingEnded: ScreenSharingSchema,
  chatMessage: ChatBroadcastSchema,
  /** A participant's account was deleted: show them as "Deleted user" (see account.ts). */
  accountDeleted: AccountDeletedSchema,
  roleChanged: RoleChangedSchema,
  lockState: LockStateSchema,
  lobbyUpdate: LobbyUpdateSchema,
  lobbyAdmitted: SessionNoticeSchema,
  lobbyRefused: SessionNoticeSchema,
  /** To a removed participant's sockets, just before the server disconnects them. */
  removedFromSession: SessionNoticeSchema,
  /** A shared language server's problems on some files (each file's list replaces its last). */
  lspDiagnostics: LspDiagnosticsSchema,
} as const;

type ClientCatalogue = typeof CLIENT_EVENTS;
export type ClientEventName = keyof ClientCatalogue;

/** The payload type of a client event, as the server's handler sees it after parsing. */
export type ClientPayload<E extends ClientEventName> = z.output<ClientCatalogue[E]["payload"]>;

/** The payload type of a client event, as the browser sends it. */
export type ClientPayloadInput<E extends ClientEventName> = z.input<ClientCatalogue[E]["payload"]>;

/** The ack data type of a client event, or never when it is not acknowledged. */
export type ClientAckData<E extends ClientEventName> = ClientCatalogue[E] extends { ack: z.ZodType }
  ? z.infer<ClientCatalogue[E]["ack"]>
  : never;

/** socket.io's typed map of browser-to-server events, derived from the catalogue. */
export type ClientToServerEvents = {
  [E in ClientEventName]: ClientCatalogue[E] extends { ack: z.ZodType }
    ? (payload: ClientPayloadInput<E>, ack: (result: Ack<ClientAckData<E>>) => void) => void
    : (payload: ClientPayloadInput<E>) => void;
};

/** socket.io's typed map of server-to-browser events, derived from the catalogue. */
export type ServerToClientEvents = {
  [E in keyof typeof SERVER_EVENTS]: (payload: z.input<(typeof SERVER_EVENTS)[E]>) => void;
};
