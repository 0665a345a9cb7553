/** Why the sessions feature refused something; each edge maps the code (socket: as it is). */
export type SessionErrorCode =
  | "not_found"
  | "forbidden"
  | "invalid_payload"
  | "removed"
  | "invalid_link"
  | "session_locked";

/** A refusal of the sessions feature, in words for the person refused. */
export class SessionError extends Error {
  constructor(
    readonly code: SessionErrorCode,
    message: string,
  ) {
    super(message);
  }
}
