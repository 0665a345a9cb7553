import { z } from "zod";

/** Every error code the API answers with; the message beside it is for people. */
export const ERROR_CODES = [
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
  "internal",
] as const;

export const ErrorCodeSchema = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

/** The body of every REST error response. `message` is what the spec's screens show. */
export const ApiErrorSchema = z.object({
  code: ErrorCodeSchema,
  message: z.string(),
});
export type ApiError = z.infer<typeof ApiErrorSchema>;

/** Messages that clients must recognise by their exact text (spec accounts §4 and §8). */
export const AUTH_MESSAGES = {
  invalidToken: "Invalid token",
  tokenExpired: "Token expired",
  noToken: "Authentication required",
  badCredentials: "Invalid email/username or password",
  tooManyLogins: "Too many login attempts. Please try again later.",
  emailTaken: "Email is already registered",
  usernameTaken: "Username is already taken",
} as const;
