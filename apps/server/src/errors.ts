import type { ErrorCode } from "@ensemble/protocol";

/** What a refusal carries beyond its code and message; each edge reads the fields it knows. */
export interface ErrorDetails {
  /** Seconds until the caller may try again (a rate limit): HTTP sends it as Retry-After. */
  retryAfterSeconds?: number;
  /** The error status a remote runner (Piston) answered with; the message is the spec's text for it. */
  upstreamStatus?: number;
  /** A Yjs update built on content the server lacks (a lost or reordered message): ask for it again. */
  missingContent?: boolean;
}

/**
 * The one error a feature throws when it refuses something or cannot finish: a code from the
 * protocol's list and a message for the person refused. The HTTP edge (http/errors.ts) and
 * the socket edge (realtime/handle.ts) each map the code once; a feature never maps it itself.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
    this.name = "DomainError";
  }
}
