import type { ApiError, ErrorCode } from "@ensemble/protocol";
import type { ErrorRequestHandler, RequestHandler } from "express";
import { DomainError } from "../errors";

/** Each error code's HTTP status: the one place codes meet statuses. */
const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  invalid_body: 400,
  invalid_payload: 400,
  unknown_event: 400,
  unauthenticated: 401,
  invalid_token: 401,
  token_expired: 401,
  forbidden: 403,
  not_joined: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  limit: 413,
  invalid_message: 400,
  update_refused: 422,
  rate_limited: 429,
  too_many_runs: 429,
  run_in_progress: 409,
  execution_failed: 422,
  cancelled: 503,
  service_unavailable: 503,
  bad_gateway: 502,
  oauth_disabled: 404,
  github_auth: 422,
  git_failed: 422,
  session_ended: 409,
  call_full: 409,
  read_only: 403,
  session_locked: 403,
  removed: 403,
  invalid_link: 403,
  language_server_busy: 503,
  language_server_unavailable: 503,
  internal: 500,
};

/**
 * The codes REST names otherwise (its names came first, in the spec): a service says
 * `invalid_payload` or `cancelled` whichever edge the request came through.
 */
const REST_CODE: Partial<Record<ErrorCode, ErrorCode>> = {
  invalid_payload: "invalid_body",
  cancelled: "service_unavailable",
};

/** What errorHandler answers for a thrown error; `isUnexpected` when it was none of ours (a 500). */
export interface HttpAnswer {
  status: number;
  body: ApiError;
  headers: Record<string, string>;
  isUnexpected: boolean;
}

/**
 * The HTTP answer to any thrown error. A DomainError, or a client error of the Express stack,
 * keeps its code (and a wait as Retry-After); anything else is a 500 that says nothing internal.
 */
export function httpAnswer(error: unknown): HttpAnswer {
  const known = toDomainError(error);
  const domain = known ?? new DomainError("internal", "Something went wrong");
  const { retryAfterSeconds } = domain.details;
  return {
    status: STATUS[domain.code],
    body: { code: REST_CODE[domain.code] ?? domain.code, message: domain.message },
    headers: retryAfterSeconds === undefined ? {} : { "Retry-After": String(retryAfterSeconds) },
    isUnexpected: !known,
  };
}

/** JSON 404 for any unknown route under /api. */
export const apiNotFound: RequestHandler = (req) => {
  throw new DomainError("not_found", `No API route for ${req.method} ${req.path}`);
};

/**
 * Turns every thrown error into `{ code, message }` (httpAnswer). A client error (ours,
 * body-parser's, Express's, send's: anything carrying a 4xx status) keeps a 4xx; anything
 * else is a 500 that says nothing internal and carries the request id, under which pino-http logs the
 * error once (with its stack) when the response ends.
 */
export function errorHandler(): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    // Too late for an answer of our own: Express's final handler ends the connection.
    if (res.headersSent) return next(error);
    const answer = httpAnswer(error);
    if (answer.isUnexpected) {
      res.err = error instanceof Error ? error : new Error(String(error));
      answer.body.requestId = String(req.id);
    }
    res.status(answer.status).set(answer.headers).json(answer.body);
  };
}

/** body-parser's failures by their `type`, each with our message. */
const BODY_ERRORS: Record<string, () => DomainError> = {
  "entity.too.large": () => new DomainError("payload_too_large", "Request body is too large"),
  "entity.parse.failed": () => new DomainError("invalid_body", "Request body is not valid JSON"),
  "encoding.unsupported": () =>
    new DomainError("unsupported_media_type", "Unsupported Content-Encoding (use gzip, deflate, br or none)"),
  "charset.unsupported": () => new DomainError("unsupported_media_type", "Unsupported charset (use utf-8)"),
  "request.aborted": () => new DomainError("bad_request", "The request was aborted before its body arrived"),
  "request.size.invalid": () =>
    new DomainError("bad_request", "Request body length does not match its Content-Length"),
};

/** Any other 4xx status an Express-stack error carries, as our code and a plain message. */
const CLIENT_STATUSES: Partial<Record<number, () => DomainError>> = {
  401: () => new DomainError("unauthenticated", "Authentication required"),
  403: () => new DomainError("forbidden", "Forbidden"),
  404: () => new DomainError("not_found", "Not found"),
  413: () => new DomainError("payload_too_large", "Request is too large"),
  415: () => new DomainError("unsupported_media_type", "Unsupported media type"),
};

function toDomainError(error: unknown): DomainError | undefined {
  if (error instanceof DomainError) return error;
  // Express decodes route parameters with decodeURIComponent, which throws on a bad escape.
  if (error instanceof URIError)
    return new DomainError("bad_request", "The address has a malformed %-escape");
  if (typeof error !== "object" || error === null) return undefined;
  const fields = error as { type?: unknown; status?: unknown; statusCode?: unknown; errno?: unknown };
  const byType = typeof fields.type === "string" ? BODY_ERRORS[fields.type] : undefined;
  if (byType) return byType();
  const status = typeof fields.status === "number" ? fields.status : fields.statusCode;
  if (typeof status !== "number" || status < 400 || status > 499) return undefined;
  // body-parser hands on zlib's own error, with its errno, as a 400 when a body does not decode.
  if (status === 400 && typeof fields.errno === "number") {
    return new DomainError("bad_request", "Request body does not decode as its Content-Encoding says");
  }
  return CLIENT_STATUSES[status]?.() ?? new DomainError("bad_request", "The request is malformed");
}
