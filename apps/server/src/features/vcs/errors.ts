/** Why a git operation was refused or failed; the socket and HTTP edges map each to their codes. */
export type VcsErrorCode =
  | "forbidden"
  | "invalid"
  | "not_found"
  | "conflict"
  | "github_auth"
  | "rate_limited"
  | "failed";

/** A refused or failed git operation; the message is for people and never holds a token. */
export class VcsError extends Error {
  constructor(
    readonly code: VcsErrorCode,
    message: string,
  ) {
    super(message);
  }
}
