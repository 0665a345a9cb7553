import {
  AUTH_MESSAGES,
  type LoginBody,
  type RegisterBody,
  type UpdateUserBody,
  type User,
} from "@ensemble/protocol";
import { isUniqueViolation } from "../../db/index";
import { HttpError } from "../../http/errors";
import type { Limiter } from "../../limiter";
import { hashPassword, verifyPassword } from "./passwords";
import { toUser, type UserRecord, type UserRepo } from "./repo";
import type { TokenService } from "./tokens";

export interface AuthDeps {
  users: UserRepo;
  tokens: TokenService;
  loginsPerAddress: Limiter;
  failedLoginsPerAccount: Limiter;
}

/** Accounts: register, login, the bearer token's user, and changes to one's own record. */
export function createAuthService({ users, tokens, loginsPerAddress, failedLoginsPerAccount }: AuthDeps) {
  async function ensureFree(name: string | undefined, email: string | undefined, exceptId?: string) {
    const { nameTaken, emailTaken } = await users.nameOrEmailTaken(name, email, exceptId);
    if (emailTaken) throw new HttpError("conflict", AUTH_MESSAGES.emailTaken);
    if (nameTaken) throw new HttpError("conflict", AUTH_MESSAGES.usernameTaken);
  }

  // The check above is racy; the unique indexes are the real guard.
  function rethrowConflict(error: unknown): never {
    if (isUniqueViolation(error)) {
      const onEmail = error.constraint === "users_email_key";
      throw new HttpError("conflict", onEmail ? AUTH_MESSAGES.emailTaken : AUTH_MESSAGES.usernameTaken);
    }
    throw error;
  }

  async function issue(record: UserRecord, message: string) {
    return { token: await tokens.sign(record.id), user: toUser(record), message };
  }

  return {
    async register(body: RegisterBody) {
      await ensureFree(body.name, body.email);
      const passwordHash = await hashPassword(body.password);
      const record = await users
        .insert({ name: body.name, email: body.email, passwordHash })
        .catch(rethrowConflict);
      return issue(record, "Registration successful");
    },

    async login(body: LoginBody, address: string) {
      const account = body.email.toLowerCase();
      const wait = Math.max(
        await loginsPerAddress.retryAfter(address),
        await failedLoginsPerAccount.retryAfter(account),
      );
      if (wait > 0) {
        throw new HttpError("rate_limited", AUTH_MESSAGES.tooManyLogins, { "Retry-After": String(wait) });
      }
      await loginsPerAddress.take(address);
      const record = await users.findByLogin(body.email);
      const isValid = await verifyPassword(record?.passwordHash ?? null, body.password);
      if (!record || !isValid) {
        await failedLoginsPerAccount.take(account);
        throw new HttpError("unauthenticated", AUTH_MESSAGES.badCredentials);
      }
      await failedLoginsPerAccount.reset(account);
      return issue(record, "Login successful");
    },

    /** The user a bearer token names; a token of a deleted user is an invalid token. */
    async authenticate(token: string): Promise<User> {
      const record = await users.findById(await tokens.verify(token));
      if (!record) throw new HttpError("invalid_token", AUTH_MESSAGES.invalidToken);
      return toUser(record);
    },

    async getOwn(callerId: string, id: string): Promise<User> {
      if (callerId !== id) throw new HttpError("forbidden", "You can only view your own account");
      const record = await users.findById(id);
      if (!record) throw new HttpError("not_found", "User not found");
      return toUser(record);
    },

    async updateOwn(callerId: string, id: string, body: UpdateUserBody): Promise<User> {
      if (callerId !== id) throw new HttpError("forbidden", "You can only update your own account");
      await ensureFree(body.name, body.email, id);
      const passwordHash = body.password === undefined ? undefined : await hashPassword(body.password);
      const record = await users
        .update(id, {
          ...(body.name !== undefined && { name: body.name }),
          ...(body.email !== undefined && { email: body.email }),
          ...(passwordHash !== undefined && { passwordHash }),
        })
        .catch(rethrowConflict);
      if (!record) throw new HttpError("not_found", "User not found");
      return toUser(record);
    },

    /** Signs in the GitHub account's user, creating one on its first visit. */
    async loginWithGithub(profile: { id: number; login: string; email: string | null }) {
      const existing = await users.findByGithubId(profile.id);
      if (existing) return tokens.sign(existing.id);
      const record = await insertGithubUser(users, profile).catch(rethrowConflict);
      return tokens.sign(record.id);
    },
  };
}

/**
 * A GitHub login may collide with a local username, so a numeric suffix is tried; an email
 * GitHub does not disclose gets a placeholder that cannot receive mail.
 */
async function insertGithubUser(
  users: UserRepo,
  profile: { id: number; login: string; email: string | null },
) {
  const email = profile.email ?? `${profile.id}+${profile.login}@users.noreply.github.com`;
  const { emailTaken } = await users.nameOrEmailTaken(undefined, email);
  if (emailTaken) {
    throw new HttpError(
      "conflict",
      "An account with this GitHub email already exists; sign in with your password",
    );
  }
  for (let attempt = 0; attempt < 20; attempt++) {
    const name = attempt === 0 ? profile.login : `${profile.login}-${attempt + 1}`;
    if (!(await users.nameOrEmailTaken(name, undefined)).nameTaken) {
      return users.insert({ name, email, passwordHash: null, githubId: profile.id });
    }
  }
  throw new HttpError("conflict", AUTH_MESSAGES.usernameTaken);
}

export type AuthService = ReturnType<typeof createAuthService>;
