import {
  ACCOUNT_MESSAGES,
  API_TOKEN_MESSAGES,
  AUTH_MESSAGES,
  type CreateApiTokenBody,
  type DeleteAccountBody,
  type LoginBody,
  OAUTH_ERROR_MESSAGES,
  type RegisterBody,
  type UpdateUserBody,
  type User,
} from "@ensemble/protocol";
import { isUniqueViolation, type Queryable } from "../../db/index";
import { DomainError } from "../../errors";
import type { Limiter } from "../../limiter";
import { type ApiTokens, isApiToken } from "./apiTokens";
import type { LoginCodes } from "./loginCodes";
import type { LoginThrottle } from "./loginThrottle";
import { hashPassword, verifyPassword } from "./passwords";
import { toUser, type UserRecord, type UserRepo } from "./repo";
import type { TokenService } from "./tokens";

export interface AuthDeps {
  users: UserRepo;
  tokens: TokenService;
  loginCodes: LoginCodes;
  loginThrottle: LoginThrottle;
  signUpsPerAddress: Limiter;
  apiTokens: ApiTokens;
}

/** Accounts: register, login, the bearer token's user, and changes to one's own record. */
export function createAuthService({
  users,
  tokens,
  loginCodes,
  loginThrottle,
  signUpsPerAddress,
  apiTokens,
}: AuthDeps) {
  async function ensureFree(name: string | undefined, email: string | undefined, exceptId?: string) {
    const { nameTaken, emailTaken } = await users.nameOrEmailTaken(name, email, exceptId);
    if (emailTaken) throw new DomainError("conflict", AUTH_MESSAGES.emailTaken);
    if (nameTaken) throw new DomainError("conflict", AUTH_MESSAGES.usernameTaken);
  }

  // The check above is racy; the unique indexes are the real guard.
  function rethrowConflict(error: unknown): never {
    if (isUniqueViolation(error)) {
      const onEmail = error.constraint === "users_email_key";
      throw new DomainError("conflict", onEmail ? AUTH_MESSAGES.emailTaken : AUTH_MESSAGES.usernameTaken);
    }
    throw error;
  }

  const sign = (record: UserRecord) => tokens.sign({ userId: record.id, version: record.tokenVersion });

  /** Told of each user whose earlier tokens just ended, so live connections made with them end too. */
  const tokensEndedListeners = new Set<(userId: string) => void>();
  const tokensEnded = (userId: string) => {
    for (const listener of tokensEndedListeners) listener(userId);
  };

  async function issue(record: UserRecord, message: string) {
    return { token: await sign(record), user: toUser(record), message };
  }

  /**
   * The user a bearer token names, in one query; a token of a deleted user, or one signed
   * before a password change or a sign-out everywhere, is an invalid token.
   */
  async function authenticate(token: string): Promise<User> {
    // The one place every bearer check passes: an API token authorizes the execute API only.
    if (isApiToken(token)) throw new DomainError("forbidden", API_TOKEN_MESSAGES.onlyExecute);
    const { userId, version } = await tokens.verify(token);
    const record = await users.findById(userId);
    if (!record || record.tokenVersion !== version) {
      throw new DomainError("invalid_token", AUTH_MESSAGES.invalidToken);
    }
    return toUser(record);
  }

  return {
    async register(body: RegisterBody, address: string) {
      const wait = await signUpsPerAddress.take(address);
      if (wait > 0)
        throw new DomainError("rate_limited", AUTH_MESSAGES.tooManySignUps, { retryAfterSeconds: wait });
      await ensureFree(body.name, body.email);
      const passwordHash = await hashPassword(body.password);
      const record = await users
        .insert({ name: body.name, email: body.email, passwordHash })
        .catch(rethrowConflict);
      return issue(record, "Registration successful");
    },

    async login(body: LoginBody, address: string) {
      const record = await users.findByLogin(body.email);
      // The username and the email of one account count as one; an unknown one counts alike.
      const account = record?.id ?? `unknown:${body.email.toLowerCase()}`;
      const wait = await loginThrottle.admit(account, address);
      if (wait > 0)
        throw new DomainError("rate_limited", AUTH_MESSAGES.tooManyLogins, { retryAfterSeconds: wait });
      const isValid = await verifyPassword(record?.passwordHash ?? null, body.password);
      if (!record || !isValid) {
        await loginThrottle.failed(account, address);
        throw new DomainError("unauthenticated", AUTH_MESSAGES.badCredentials);
      }
      await loginThrottle.succeeded(account, address);
      return issue(record, "Login successful");
    },

    authenticate,

    /**
     * The caller of the execute API: `Authorization` holds a sign-in token or a personal API
     * token, as `Bearer <token>` or bare (as Piston's public instance takes its key). Throws 401.
     */
    async authenticateExecute(authorization: string | undefined): Promise<User> {
      const credential = executeCredential(authorization);
      if (!credential) throw new DomainError("unauthenticated", AUTH_MESSAGES.noToken);
      if (!isApiToken(credential)) return authenticate(credential);
      const ownerId = await apiTokens.ownerOf(credential);
      const record = ownerId ? await users.findById(ownerId) : undefined;
      if (!record) throw new DomainError("invalid_token", AUTH_MESSAGES.invalidToken);
      return toUser(record);
    },

    createApiToken: (callerId: string, body: CreateApiTokenBody) => apiTokens.create(callerId, body.name),
    listApiTokens: (callerId: string) => apiTokens.list(callerId),
    revokeApiToken: (callerId: string, id: string) => apiTokens.revoke(callerId, id),

    /** Ends every token of the caller, on every device. */
    async signOutEverywhere(callerId: string): Promise<void> {
      if (!(await users.raiseTokenVersion(callerId))) throw new DomainError("not_found", "User not found");
      tokensEnded(callerId);
    },

    /** Calls `listener` with the user's id whenever a user's earlier tokens end. */
    onTokensEnded(listener: (userId: string) => void): void {
      tokensEndedListeners.add(listener);
    },

    async getOwn(callerId: string, id: string): Promise<User> {
      if (callerId !== id) throw new DomainError("forbidden", "You can only view your own account");
      const record = await users.findById(id);
      if (!record) throw new DomainError("not_found", "User not found");
      return toUser(record);
    },

    /** A password change ends every earlier token; the answer's `token` replaces the caller's. */
    async updateOwn(callerId: string, id: string, body: UpdateUserBody) {
      if (callerId !== id) throw new DomainError("forbidden", "You can only update your own account");
      await ensureFree(body.name, body.email, id);
      const passwordHash = body.password === undefined ? undefined : await hashPassword(body.password);
      const record = await users
        .update(id, {
          ...(body.name !== undefined && { name: body.name }),
          ...(body.email !== undefined && { email: body.email }),
          ...(passwordHash !== undefined && { passwordHash }),
        })
        .catch(rethrowConflict);
      if (!record) throw new DomainError("not_found", "User not found");
      if (passwordHash !== undefined) tokensEnded(id);
      return { user: toUser(record), ...(passwordHash !== undefined && { token: await sign(record) }) };
    },

    /**
     * The GitHub account's user (created on its first visit), as a one-time code that only the
     * browser holding `state` can exchange.
     */
    async loginWithGithub(profile: { id: number; login: string; email: string | null }, state: string) {
      const record =
        (await users.findByGithubId(profile.id)) ??
        (await insertGithubUser(users, profile).catch(rethrowConflict));
      return loginCodes.issue(record.id, state);
    },

    /**
     * A GitHub sign-in made to confirm an account deletion: a one-time code for the existing
     * user of that GitHub account (nobody is created), which only the browser holding `state`
     * can use, with `confirmDeletion`.
     */
    async reauthWithGithub(profile: { id: number }, state: string) {
      const record = await users.findByGithubId(profile.id);
      if (!record) throw new DomainError("unauthenticated", ACCOUNT_MESSAGES.githubMismatch);
      return loginCodes.issue(record.id, state);
    },

    /** Whether the caller's account signs in with a password (else it confirms with GitHub). */
    async hasPassword(callerId: string): Promise<boolean> {
      const record = await users.findById(callerId);
      if (!record) throw new DomainError("not_found", "User not found");
      return record.passwordHash !== null;
    },

    /**
     * Checks that the caller confirmed deleting their account: their password (each wrong one
     * counts as a failed sign-in, with its waits), or, for an account without one, a GitHub
     * re-sign-in's code made for this browser (`state`, its cookie) by the same user.
     * Answers the name the account has until it is deleted.
     */
    async confirmDeletion(
      callerId: string,
      body: DeleteAccountBody,
      address: string,
      state: string | undefined,
    ): Promise<{ name: string }> {
      const record = await users.findById(callerId);
      if (!record) throw new DomainError("not_found", "User not found");
      if ("githubCode" in body) {
        const userId = await loginCodes.redeem(body.githubCode, state);
        if (userId === undefined) throw new DomainError("unauthenticated", ACCOUNT_MESSAGES.githubExpired);
        if (userId !== callerId) throw new DomainError("forbidden", ACCOUNT_MESSAGES.githubMismatch);
        return { name: record.name };
      }
      if (record.passwordHash === null)
        throw new DomainError("unauthenticated", ACCOUNT_MESSAGES.needsGithub);
      const wait = await loginThrottle.admit(record.id, address);
      if (wait > 0)
        throw new DomainError("rate_limited", AUTH_MESSAGES.tooManyLogins, { retryAfterSeconds: wait });
      if (!(await verifyPassword(record.passwordHash, body.password))) {
        await loginThrottle.failed(record.id, address);
        throw new DomainError("unauthenticated", ACCOUNT_MESSAGES.wrongPassword);
      }
      return { name: record.name };
    },

    /**
     * Deletes the account's personal data in `tx` (see the repo's `anonymise`); the caller
     * calls `endTokens` once `tx` committed. False when it was deleted already.
     */
    forget: (tx: Queryable, userId: string): Promise<boolean> => users.anonymise(tx, userId),

    /** Closes every live connection opened with the user's earlier tokens. */
    endTokens: tokensEnded,

    /** Signs in the user of a GitHub login's code, once, for the browser that holds its state. */
    async exchangeGithubCode(code: string, state: string | undefined) {
      const userId = await loginCodes.redeem(code, state);
      const record = userId === undefined ? undefined : await users.findById(userId);
      if (!record) throw new DomainError("unauthenticated", OAUTH_ERROR_MESSAGES.exchange_failed);
      return issue(record, "Login successful");
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
    throw new DomainError(
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
  throw new DomainError("conflict", AUTH_MESSAGES.usernameTaken);
}

/** `Bearer <token>` or a bare token; undefined when the header holds neither. */
function executeCredential(authorization: string | undefined): string | undefined {
  const value = authorization?.trim();
  if (!value) return undefined;
  const bearer = value.match(/^Bearer\s+(\S+)$/i);
  if (bearer) return bearer[1];
  return /^\S+$/.test(value) ? value : undefined;
}

export type AuthService = ReturnType<typeof createAuthService>;
