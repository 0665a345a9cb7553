import { createHash, randomBytes } from "node:crypto";
import {
  API_TOKEN_LIMITS,
  API_TOKEN_MESSAGES,
  API_TOKEN_PREFIX,
  type ApiToken,
  type CreatedApiToken,
} from "@ensemble/protocol";
import { DomainError } from "../../errors";
import type { ApiTokenRepo } from "./apiTokenRepo";

/** Whether a credential is a personal API token (not a sign-in token). */
export const isApiToken = (credential: string) => credential.startsWith(API_TOKEN_PREFIX);

/** A 256-bit secret needs no slow hash: sha256 cannot be reversed or guessed at that entropy. */
const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * Personal API tokens: made, listed and revoked by their owner; a token is stored only as its
 * hash, and resolves to its owner's id for the execute API.
 */
export function createApiTokens(repo: ApiTokenRepo) {
  return {
    async create(userId: string, name: string): Promise<CreatedApiToken> {
      const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
      const stored = await repo.insert(userId, name, hashToken(token), API_TOKEN_LIMITS.perUser);
      if (!stored) throw new DomainError("conflict", API_TOKEN_MESSAGES.tooMany);
      return { ...stored, token };
    },
    list: (userId: string): Promise<ApiToken[]> => repo.list(userId),
    async revoke(userId: string, id: string): Promise<void> {
      // Another account's token is "not found" too: its existence is none of the caller's business.
      if (!(await repo.delete(userId, id))) throw new DomainError("not_found", API_TOKEN_MESSAGES.notFound);
    },
    /** The owner's id of a live token, or undefined. */
    ownerOf: (token: string): Promise<string | undefined> => repo.use(hashToken(token)),
  };
}

export type ApiTokens = ReturnType<typeof createApiTokens>;
