import type { ApiError, ErrorCode } from "@ensemble/protocol";
import type { ErrorRequestHandler, RequestHandler } from "express";
import type { Logger } from "../logger";

const STATUS: Record<ErrorCode, number> = {
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

/** Turns every thrown error into `{ code, message }`; unexpected ones are logged, never shown. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, _req, res, _next) => {
    const known = toHttpError(error);
    if (!known) logger.error({ err: error }, "unhandled request error");
    const http = known ?? new HttpError("internal", "Something went wrong");
    const body: ApiError = { code: http.code, message: http.message };
    res.status(http.status).set(http.headers).json(body);
  };
}

/** body-parser reports its own failures with a `type`; map them to our codes. */
function toHttpError(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  if (typeof error !== "object" || error === null || !("type" in error)) return undefined;
  switch (error.type) {
    case "entity.too.large":
      return new HttpError("payload_too_large", "Request body is too large");
    case "entity.parse.failed":
      return new HttpError("invalid_body", "Request body is not valid JSON");
    case "encoding.unsupported":
    case "charset.unsupported":
      return new HttpError("unsupported_media_type", "Unsupported body encoding");
    default:
      return undefined;
  }
}
