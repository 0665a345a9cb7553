import { z } from "zod";
import { LIMITS } from "./limits";

const username = z
  .string({ error: "Username is required" })
  .trim()
  .min(1, "Username is required")
  .max(LIMITS.usernameMax, `Username must be at most ${LIMITS.usernameMax} characters`)
  // Login reads an identifier with '@' as an email, so a username must not look like one.
  .refine((name) => !name.includes("@"), "Username cannot contain '@'");

const email = z
  .string({ error: "Email is required" })
  .trim()
  .min(1, "Email is required")
  .max(LIMITS.emailMax, "Email is too long")
  .pipe(z.email({ error: "Email is not a valid address" }));

const password = z
  .string({ error: "Password is required" })
  .min(1, "Password is required")
  .max(LIMITS.passwordMax, `Password must be at most ${LIMITS.passwordMax} characters`);

/** POST /api/auth/register */
export const RegisterBodySchema = z.object({ name: username, email, password });
export type RegisterBody = z.infer<typeof RegisterBodySchema>;

/** POST /api/auth/login; `email` may also hold a username: with '@' it is an email, else a username. */
export const LoginBodySchema = z.object({
  email: z
    .string({ error: "Email or username is required" })
    .trim()
    .min(1, "Email or username is required")
    .max(LIMITS.emailMax, "Email or username is too long"),
  password,
});
export type LoginBody = z.infer<typeof LoginBodySchema>;

/** PUT /api/auth/user/{id}: any of the fields; at least one. */
export const UpdateUserBodySchema = z
  .object({ name: username.optional(), email: email.optional(), password: password.optional() })
  .refine((b) => b.name !== undefined || b.email !== undefined || b.password !== undefined, {
    message: "Nothing to update",
  });
export type UpdateUserBody = z.infer<typeof UpdateUserBodySchema>;

/** A user as the API shows it to that same user. `_id` mirrors `id` for the spec's clients. */
export const UserSchema = z.object({
  id: z.string(),
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  createdAt: z.string(),
});
export type User = z.infer<typeof UserSchema>;

/** Answer of register and login. */
export const AuthResponseSchema = z.object({
  token: z.string(),
  user: UserSchema,
  message: z.string(),
});
export type AuthResponse = z.infer<typeof AuthResponseSchema>;

/** Answer of GET and PUT /api/auth/user/{id}. */
export const UserRecordResponseSchema = z.object({
  success: z.literal(true),
  data: UserSchema,
  message: z.string().optional(),
});
export type UserRecordResponse = z.infer<typeof UserRecordResponseSchema>;

/**
 * Answer of PUT /api/auth/user/{id}. A password change ends every earlier token, so it also
 * carries a fresh `token` that keeps the changing browser signed in.
 */
export const UpdateUserResponseSchema = UserRecordResponseSchema.extend({ token: z.string().optional() });
export type UpdateUserResponse = z.infer<typeof UpdateUserResponseSchema>;

/** Answer of POST /api/auth/logout-all. */
export const LogoutAllResponseSchema = z.object({ message: z.string() });
export type LogoutAllResponse = z.infer<typeof LogoutAllResponseSchema>;

/** POST /api/auth/github/exchange and /consent: the one-time code that ended a GitHub login or consent. */
export const GithubExchangeBodySchema = z.object({
  code: z.string({ error: "Code is required" }).min(1, "Code is required").max(2048, "Code is too long"),
});
export type GithubExchangeBody = z.infer<typeof GithubExchangeBodySchema>;

/** Answer of POST /api/auth/github/consent: the Git panel's GitHub token and its login. */
export const GithubConsentResponseSchema = z.object({ token: z.string(), login: z.string() });
export type GithubConsentResponse = z.infer<typeof GithubConsentResponseSchema>;

/**
 * Why a GitHub login failed, as `/auth/callback?error={code}`: the page shows our message for
 * the code, never text from the address.
 */
export const OAUTH_ERROR_MESSAGES = {
  access_denied: "GitHub login was cancelled.",
  state_mismatch: "GitHub login expired or was tampered with. Please try again.",
  github_failed: "GitHub could not confirm the login. Please try again.",
  account_conflict: "An account with this GitHub email already exists; sign in with your password",
  exchange_failed: "Authentication failed",
  reauth_mismatch: "That GitHub account is not this account's; nothing was deleted",
} as const;
export type OAuthErrorCode = keyof typeof OAUTH_ERROR_MESSAGES;

const oauthMessages = new Map<string, string>(Object.entries(OAUTH_ERROR_MESSAGES));

/** Our message for an error code of the OAuth callback; anything else is "Authentication failed". */
export function oauthErrorMessage(code: string): string {
  return oauthMessages.get(code) ?? OAUTH_ERROR_MESSAGES.exchange_failed;
}

/** GET /api/auth/providers: which social logins this server offers. */
export const ProvidersResponseSchema = z.object({ github: z.boolean() });
export type ProvidersResponse = z.infer<typeof ProvidersResponseSchema>;
