import { z } from "zod";

/**
 * Personal API tokens: a signed-in user makes them on the account page for Piston clients.
 * A token runs code through the execute API (`/api/v2/execute`, `/api/v2/runtimes`,
 * `/api/v2/connect`) and authorizes nothing else.
 */
export const API_TOKEN_LIMITS = {
  /** Tokens one account holds at once. */
  perUser: 20,
  nameMax: 60,
} as const;

/** Every token starts with it, so the server tells one from a sign-in token without a lookup. */
export const API_TOKEN_PREFIX = "ens_";

export const API_TOKEN_MESSAGES = {
  onlyExecute: "An API token may only run code: /api/v2/execute, /api/v2/runtimes and /api/v2/connect.",
  tooMany: `An account holds at most ${API_TOKEN_LIMITS.perUser} API tokens. Revoke one first.`,
  notFound: "API token not found",
} as const;

/** POST /api/users/me/tokens */
export const CreateApiTokenBodySchema = z.object({
  name: z
    .string({ error: "Name is required" })
    .trim()
    .min(1, "Name is required")
    .max(API_TOKEN_LIMITS.nameMax, `Name must be at most ${API_TOKEN_LIMITS.nameMax} characters`),
});
export type CreateApiTokenBody = z.infer<typeof CreateApiTokenBodySchema>;

/** A token as its owner sees it in the list: never its secret. */
export const ApiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type ApiToken = z.infer<typeof ApiTokenSchema>;

/** GET /api/users/me/tokens, newest first. */
export const ApiTokenListSchema = z.object({ tokens: z.array(ApiTokenSchema) });
export type ApiTokenList = z.infer<typeof ApiTokenListSchema>;

/** 201 of POST /api/users/me/tokens: the one time the secret is shown. */
export const CreatedApiTokenSchema = ApiTokenSchema.extend({ token: z.string() });
export type CreatedApiToken = z.infer<typeof CreatedApiTokenSchema>;
