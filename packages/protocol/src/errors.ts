import { z } from "zod";

/**
 * Every error code the server answers with, over REST (`ApiError`) and over sockets (an ack's
 * `error`, or `socketError`): each is declared here once. The message beside it is for people.
 * The server maps each code to an HTTP status (http/errors.ts) and to a socket refusal
 * (realtime/handle.ts); a few are only ever met on one of the two.
 */
export const ERROR_CODES = [
  /** The request itself is malformed (an address with a bad %-escape, a body that does not decode). */
  "bad_request",
  /** A REST body failed its schema (sockets call it `invalid_payload`). */
  "invalid_body",
  /**
   * A socket payload failed its catalogue schema, an acknowledged event came without a
   * callback, or an event without one came with one (REST calls it `invalid_body`).
   */
  "invalid_payload",
  /** The event is not in the catalogue (or is one of socket.io's reserved names). */
  "unknown_event",
  "unauthenticated",
  "invalid_token",
  "token_expired",
  "forbidden",
  /** The socket has not joined the session the event names. */
  "not_joined",
  "not_found",
  "conflict",
  "payload_too_large",
  "unsupported_media_type",
  /** A workspace limit (files, bytes, depth) would be exceeded. */
  "limit",
  /** A binary Yjs message that could not be read. */
  "invalid_message",
  /** A Yjs update that was read but not allowed. */
  "update_refused",
  /** Too many requests or events: nothing was done; try again after the wait named. */
  "rate_limited",
  "too_many_runs",
  /** The session's single-flight run is already in progress. */
  "run_in_progress",
  /** The run started and failed; everyone was shown why in the terminal. */
  "execution_failed",
  /** The run was cancelled (its caller left, or the server is stopping). */
  "cancelled",
  "service_unavailable",
  "bad_gateway",
  "oauth_disabled",
  /** GitHub refused the token sent with a git operation: the browser forgets it (spec §8). */
  "github_auth",
  /** A git command ran and failed; the message says why. */
  "git_failed",
  /** The session was ended by its host: it is read-only until the host reopens it. */
  "session_ended",
  /** The session's call already has as many people as a mesh carries. */
  "call_full",
  /** The sender is a viewer: they see everything and change nothing (ROLE_MESSAGES.readOnly). */
  "read_only",
  /** The session is locked: the joiner waits in the lobby until the host admits or refuses them. */
  "session_locked",
  /** The host removed the caller, and the session is locked. */
  "removed",
  /** A share link's key that is not one of the session's. */
  "invalid_link",
  /** Every shared language server slot of this node is taken (LANGUAGE_SERVER_MESSAGES.busy). */
  "language_server_busy",
  /** This server has no such language server (clangd not installed, or the sandbox is missing). */
  "language_server_unavailable",
  "internal",
] as const;

export const ErrorCodeSchema = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

/** The body of every REST error response. `message` is what the spec's screens show. */
export const ApiErrorSchema = z.object({
  code: ErrorCodeSchema,
  message: z.string(),
  /** On an unexpected failure (500): the id the server logged it under, for a bug report. */
  requestId: z.string().optional(),
});
export type ApiError = z.infer<typeof ApiErrorSchema>;

/** Messages that clients must recognise by their exact text (spec accounts §4 and §8). */
export const AUTH_MESSAGES = {
  invalidToken: "Invalid token",
  tokenExpired: "Token expired",
  noToken: "Authentication required",
  badCredentials: "Invalid email/username or password",
  tooManyLogins: "Too many login attempts. Please try again later.",
  tooManySignUps: "Too many sign-ups from this address. Please try again later.",
  emailTaken: "Email is already registered",
  usernameTaken: "Username is already taken",
} as const;
