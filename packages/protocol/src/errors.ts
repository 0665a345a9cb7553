import { z } from "zod";

/** Every error code the API answers with; the message beside it is for people. */
export const ERROR_CODES = [
  /** The request itself is malformed (an address with a bad %-escape, a body that does not decode). */
  "bad_request",
  "invalid_body",
  "unauthenticated",
  "invalid_token",
  "token_expired",
  "forbidden",
  "not_found",
  "conflict",
  "payload_too_large",
  "unsupported_media_type",
  "rate_limited",
  "too_many_runs",
  "service_unavailable",
  "bad_gateway",
  "oauth_disabled",
  /** GitHub refused the token sent with a git operation (the browser forgets it). */
  "github_auth",
  /** A git command ran and failed; the message says why. */
  "git_failed",
  /** The session was ended by its host: it is read-only until the host reopens it. */
  "session_ended",
  /** The host removed the caller, and the session is locked. */
  "removed",
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

/**
 * Every code a refused socket event answers with (in its ack's `error`, or in `socketError`
 * when the event has no ack). The server's `SocketEventError` takes only these.
 */
export const SOCKET_ERROR_CODES = [
  /**
   * The payload failed its catalogue schema, an acknowledged event came without a callback,
   * or an event without one came with one.
   */
  "invalid_payload",
  /** The event is not in the catalogue (or is one of socket.io's reserved names). */
  "unknown_event",
  /** The socket has not joined the session the event names. */
  "not_joined",
  "forbidden",
  "not_found",
  "conflict",
  /** A workspace limit (files, bytes, depth) would be exceeded. */
  "limit",
  /** A binary Yjs message that could not be read. */
  "invalid_message",
  /** A Yjs update that was read but not allowed. */
  "update_refused",
  /** The session's single-flight run is already in progress. */
  "run_in_progress",
  /** The run started and failed; everyone was shown why in the terminal. */
  "execution_failed",
  /** The run was cancelled (its socket left, or the server is stopping). */
  "cancelled",
  /** A git command ran and failed; the message says why. */
  "git_failed",
  /** GitHub refused the token: the browser forgets it (spec §8). */
  "github_auth",
  /** Too many events from this connection: nothing was done; try again after the wait named. */
  "rate_limited",
  /** The session was ended by its host: it is read-only until the host reopens it. */
  "session_ended",
  /** The session's call already has as many people as a mesh carries. */
  "call_full",
  /** The sender is a viewer: they see everything and change nothing (ROLE_MESSAGES.readOnly). */
  "read_only",
  /** The session is locked: the joiner waits in the lobby until the host admits or refuses them. */
  "session_locked",
  /** The host removed the joiner and the session is locked. */
  "removed",
  /** A share link's key that is not one of the session's. */
  "invalid_link",
  "internal",
] as const;

export const SocketErrorCodeSchema = z.enum(SOCKET_ERROR_CODES);
export type SocketErrorCode = z.infer<typeof SocketErrorCodeSchema>;

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
