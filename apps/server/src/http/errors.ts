import type { ApiError, ErrorCode } from "@ensemble/protocol";
import type { ErrorRequestHandler, RequestHandler } from "express";

const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  invalid_body: 400,
  unauthenticated: 401,
  invalid_token: 401,
  token_expired: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  too_many_runs: 429,
  service_unavailable: 503,
  bad_gateway: 502,
  oauth_disabled: 404,
  github_auth: 422,
  git_failed: 422,
  session_ended: 409,
  removed: 403,
  internal: 500,
};

/** An error with a code and a message meant for the user; the HTTP status follows the code. */
export class HttpError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  get status(): number {
    return STATUS[this.code];
  }
}

/** A 429 that tells the client when it may try again. */
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new HttpError("rate_limited", message, { "Retry-After": String(retryAfterSeconds) });

/**
 * An error middleware for a feature's router: `toHttp` turns that feature's domain errors
 * into HttpErrors (the one place its codes meet HTTP statuses); anything else passes on
 * unchanged to errorHandler.
 */
export function mapDomainErrors(toHttp: (error: unknown) => HttpError | undefined): ErrorRequestHandler {
  return (error: unknown, _req, _res, next) => {
    next(toHttp(error) ?? error);
  };
}

/** JSON 404 for any unknown route under /api. */
export const apiNotFound: RequestHandler = (req) => {
  throw new HttpError("not_found", `No API route for ${req.method} ${req.path}`);
};

/**
 * Turns every thrown error into `{ code, message }`. A client error (ours, body-parser's,
 * Express's, send's: anything carrying a 4xx status) keeps a 4xx; anything else is a 500
 * that says nothing internal and carries the request id, under which pino-http logs the
 * error once (with its stack) when the response ends.
 */
export function errorHandler(): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    // Too late for an answer of our own: Express's final handler ends the connection.
    if (res.headersSent) return next(error);
    const known = toHttpError(error);
    if (!known) res.err = error instanceof Error ? error : new Error(String(error));
    const http = known ?? new HttpError("internal", "Something went wrong");
    const body: ApiError = { code: http.code, message: http.message };
    if (!known) body.requestId = String(req.id);
    res.status(http.status).set(http.headers).json(body);
  };
}

/** body-parser's failures by their `type`, each with our message. */
const BODY_ERRORS: Record<string, () => HttpError> = {
  "entity.too.large": () => new HttpError("payload_too_large", "Request body is too large"),
  "entity.parse.failed": () => new HttpError("invalid_body", "Request body is not valid JSON"),
  "encoding.unsupported": () =>
    new HttpError("unsupported_media_type", "Unsupported Content-Encoding (use gzip, deflate, br or none)"),
  "charset.unsupported": () => new HttpError("unsupported_media_type", "Unsupported charset (use utf-8)"),
  "request.aborted": () => new HttpError("bad_request", "The request was aborted before its body arrived"),
  "request.size.invalid": () =>
    new HttpError("bad_request", "Request body length does not match its Content-Length"),
};

/** Any other 4xx status an Express-stack error carries, as our code and a plain message. */
const CLIENT_STATUSES: Partial<Record<number, () => HttpError>> = {
  401: () => new HttpError("unauthenticated", "Authentication required"),
  403: () => new HttpError("forbidden", "Forbidden"),
  404: () => new HttpError("not_found", "Not found"),
  413: () => new HttpError("payload_too_large", "Request is too large"),
  415: () => new HttpError("unsupported_media_type", "Unsupported media type"),
};

function toHttpError(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  // Express decodes route parameters with decodeURIComponent, which throws on a bad escape.
  if (error instanceof URIError) return new HttpError("bad_request", "The address has a malformed %-escape");
  if (typeof error !== "object" || error === null) return undefined;
  const fields = error as { type?: unknown; status?: unknown; statusCode?: unknown; errno?: unknown };
  const byType = typeof fields.type === "string" ? BODY_ERRORS[fields.type] : undefined;
  if (byType) return byType();
  const status = typeof fields.status === "number" ? fields.status : fields.statusCode;
  if (typeof status !== "number" || status < 400 || status > 499) return undefined;
  // body-parser hands on zlib's own error, with its errno, as a 400 when a body does not decode.
  if (status === 400 && typeof fields.errno === "number") {
    return new HttpError("bad_request", "Request body does not decode as its Content-Encoding says");
  }
  return CLIENT_STATUSES[status]?.() ?? new HttpError("bad_request", "The request is malformed");
}
