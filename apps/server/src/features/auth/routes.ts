import { randomBytes, timingSafeEqual } from "node:crypto";
import {
  type ApiTokenList,
  CreateApiTokenBodySchema,
  type CreatedApiToken,
  type GithubConsentResponse,
  GithubExchangeBodySchema,
  LoginBodySchema,
  type LogoutAllResponse,
  OAUTH_ERROR_MESSAGES,
  type OAuthErrorCode,
  type ProvidersResponse,
  RegisterBodySchema,
  SessionIdSchema,
  UpdateUserBodySchema,
  type UpdateUserResponse,
  type UserRecordResponse,
} from "@ensemble/protocol";
import { type Request, type Response, Router } from "express";
import type { Config } from "../../env";
import { DomainError } from "../../errors";
import { clientAddress, publicOrigin, requireUser } from "../../http/auth";
import { parseBody } from "../../http/validate";
import type { Logger } from "../../logger";
import type { GitConsentSealer } from "./gitConsent";
import { authorizeUrl, exchangeCode, fetchProfile, GITHUB_SCOPES, type GithubOAuthConfig } from "./github";
import type { AuthService } from "./service";

const STATE_COOKIE = "ensemble_oauth_state";
/** The state cookie reaches the flow's start, GitHub's callback and the code's exchange only. */
const STATE_COOKIE_PATH = "/api/auth/github";
/** Set when the consent is for the Git panel of this session rather than for signing in. */
const GIT_SESSION_COOKIE = "ensemble_oauth_git_session";
/** Set when the sign-in confirms deleting the account (the account page's `?for=delete`). */
const DELETE_COOKIE = "ensemble_oauth_delete";
/**
 * After a GitHub re-sign-in for a deletion, the flow's state moves here, where only the
 * deletion request (`DELETE /api/auth/user/{id}`) receives it: its one-time code is of use to
 * this browser alone.
 */
export const REAUTH_COOKIE = "ensemble_reauth_state";
const REAUTH_COOKIE_PATH = "/api/auth/user";

/** The accounts API of spec §7, plus the GitHub login. */
export function authRoutes(
  auth: AuthService,
  gitConsent: GitConsentSealer,
  config: Config,
  logger: Logger,
): Router {
  const router = Router();
  const authenticate = (req: Request) => requireUser(req, auth.authenticate);

  router.post("/auth/register", async (req, res) => {
    res.status(201).json(await auth.register(parseBody(req, RegisterBodySchema), clientAddress(req)));
  });

  router.post("/auth/login", async (req, res) => {
    res.json(await auth.login(parseBody(req, LoginBodySchema), clientAddress(req)));
  });

  router.get("/getuser", async (req, res) => {
    res.json(await authenticate(req));
  });

  router.get("/auth/user/:id", async (req, res) => {
    const caller = await authenticate(req);
    const body: UserRecordResponse = { success: true, data: await auth.getOwn(caller.id, req.params.id) };
    res.json(body);
  });

  router.put("/auth/user/:id", async (req, res) => {
    const caller = await authenticate(req);
    const changes = parseBody(req, UpdateUserBodySchema);
    const { user, token } = await auth.updateOwn(caller.id, req.params.id, changes);
    const body: UpdateUserResponse = {
      success: true,
      data: user,
      message: "Profile updated successfully",
      ...(token !== undefined && { token }),
    };
    res.json(body);
  });

  // "Sign out everywhere": every token of the caller ends, this one included.
  router.post("/auth/logout-all", async (req, res) => {
    const caller = await authenticate(req);
    await auth.signOutEverywhere(caller.id);
    const body: LogoutAllResponse = { message: "Signed out everywhere" };
    res.json(body);
  });

  // Personal API tokens, for Piston clients. Only a sign-in token manages them: an API token
  // is refused here as everywhere but the execute API.
  router.get("/users/me/tokens", async (req, res) => {
    const caller = await authenticate(req);
    const body: ApiTokenList = { tokens: await auth.listApiTokens(caller.id) };
    res.json(body);
  });

  router.post("/users/me/tokens", async (req, res) => {
    const caller = await authenticate(req);
    const body: CreatedApiToken = await auth.createApiToken(
      caller.id,
      parseBody(req, CreateApiTokenBodySchema),
    );
    res.status(201).json(body);
  });

  router.delete("/users/me/tokens/:id", async (req, res) => {
    const caller = await authenticate(req);
    await auth.revokeApiToken(caller.id, req.params.id);
    res.status(204).end();
  });

  router.get("/auth/providers", (_req, res) => {
    const body: ProvidersResponse = { github: config.githubEnabled };
    res.json(body);
  });

  const github = githubConfig(config);
  router.get("/auth/github", (req, res) => {
    if (!github) throw new DomainError("oauth_disabled", "GitHub login is not configured on this server");
    const state = randomBytes(24).toString("base64url");
    const cookie = {
      httpOnly: true,
      sameSite: "lax" as const,
      secure: req.secure,
      maxAge: 10 * 60 * 1000,
      path: STATE_COOKIE_PATH,
    };
    res.cookie(STATE_COOKIE, state, cookie);
    // `?for=git&session={id}`: the host's Git panel asks for a token that can push.
    const gitSession = req.query.for === "git" ? SessionIdSchema.safeParse(req.query.session) : undefined;
    if (gitSession?.success) res.cookie(GIT_SESSION_COOKIE, gitSession.data, cookie);
    else res.clearCookie(GIT_SESSION_COOKIE, { path: cookie.path });
    if (req.query.for === "delete") res.cookie(DELETE_COOKIE, "1", cookie);
    else res.clearCookie(DELETE_COOKIE, { path: cookie.path });
    const scope = gitSession?.success ? GITHUB_SCOPES.git : GITHUB_SCOPES.login;
    res.redirect(authorizeUrl(github, callbackUrl(req, config), state, scope));
  });

  router.get("/auth/github/callback", async (req, res) => {
    if (!github) throw new DomainError("oauth_disabled", "GitHub login is not configured on this server");
    res.clearCookie(GIT_SESSION_COOKIE, { path: STATE_COOKIE_PATH });
    res.clearCookie(DELETE_COOKIE, { path: STATE_COOKIE_PATH });
    const gitSession = SessionIdSchema.safeParse(readCookie(req, GIT_SESSION_COOKIE));
    const isForDeletion = readCookie(req, DELETE_COOKIE) === "1";
    const cookieState = readCookie(req, STATE_COOKIE);
    const fail = (error: OAuthErrorCode) => {
      res.clearCookie(STATE_COOKIE, { path: STATE_COOKIE_PATH });
      if (gitSession.success) redirectToEditor(res, gitSession.data, { error });
      else if (isForDeletion) redirectToAccount(res, { deleteError: error });
      else redirectToCallback(res, { error });
    };
    const { code, state, error } = req.query;
    if (typeof error === "string") return fail(error === "access_denied" ? "access_denied" : "github_failed");
    if (typeof code !== "string" || typeof state !== "string" || !sameState(state, cookieState)) {
      return fail("state_mismatch");
    }
    try {
      const accessToken = await exchangeCode(github, code, callbackUrl(req, config));
      const profile = await fetchProfile(github, accessToken);
      // The state cookie stays: it is what lets this browser, and no other, use the code.
      if (gitSession.success) {
        // For the Git panel the token goes to the host's browser only, never into our storage.
        const sealed = await gitConsent.seal({ token: accessToken, login: profile.login }, state);
        return redirectToEditor(res, gitSession.data, { code: sealed });
      }
      if (isForDeletion) {
        const code = await auth.reauthWithGithub(profile, state);
        res.clearCookie(STATE_COOKIE, { path: STATE_COOKIE_PATH });
        res.cookie(REAUTH_COOKIE, state, {
          httpOnly: true,
          sameSite: "lax",
          secure: req.secure,
          maxAge: 10 * 60 * 1000,
          path: REAUTH_COOKIE_PATH,
        });
        return redirectToAccount(res, { deleteCode: code });
      }
      redirectToCallback(res, { code: await auth.loginWithGithub(profile, state) });
    } catch (failure) {
      // GitHub's failures (bad_gateway, with a message fit for the sign-in page) and ours.
      if (!(failure instanceof DomainError)) throw failure;
      logger.warn({ reason: failure.message }, "github login failed");
      if (isForDeletion)
        return fail(failure.code === "unauthenticated" ? "reauth_mismatch" : "github_failed");
      fail(failure.code === "conflict" ? "account_conflict" : "github_failed");
    }
  });

  // The page at /auth/callback trades the one-time code for a token, with the state cookie.
  router.post("/auth/github/exchange", async (req, res) => {
    const { code } = parseBody(req, GithubExchangeBodySchema);
    const state = readCookie(req, STATE_COOKIE);
    res.clearCookie(STATE_COOKIE, { path: STATE_COOKIE_PATH });
    res.json(await auth.exchangeGithubCode(code, state));
  });

  // The Git panel opens its sealed consent with the state cookie, which then goes: the code is
  // of use to that browser only, for its 60 s.
  router.post("/auth/github/consent", async (req, res) => {
    const { code } = parseBody(req, GithubExchangeBodySchema);
    const consent = await gitConsent.open(code, readCookie(req, STATE_COOKIE));
    res.clearCookie(STATE_COOKIE, { path: STATE_COOKIE_PATH });
    if (!consent) throw new DomainError("unauthenticated", OAUTH_ERROR_MESSAGES.exchange_failed);
    const body: GithubConsentResponse = consent;
    res.json(body);
  });

  return router;
}

function githubConfig(config: Config): GithubOAuthConfig | undefined {
  if (!config.GITHUB_CLIENT_ID || !config.GITHUB_CLIENT_SECRET) return undefined;
  return {
    clientId: config.GITHUB_CLIENT_ID,
    clientSecret: config.GITHUB_CLIENT_SECRET,
    oauthUrl: config.GITHUB_OAUTH_URL,
    apiUrl: config.GITHUB_API_URL,
  };
}

const callbackUrl = (req: Request, config: Config) => `${publicOrigin(req, config)}/api/auth/github/callback`;

/** To the sign-in page's callback with a one-time code or an error code; never a token. */
function redirectToCallback(res: Response, params: { code: string } | { error: OAuthErrorCode }) {
  res.redirect(`/auth/callback?${new URLSearchParams(params).toString()}`);
}

/**
 * Back to the session's editor with the sealed consent (or an error code) in the address's
 * fragment, which browsers never send to a server (so no log or proxy sees it); the page takes
 * it out at once and opens it with /api/auth/github/consent.
 */
function redirectToEditor(
  res: Response,
  sessionId: string,
  params: { code: string } | { error: OAuthErrorCode },
) {
  const fragment =
    "code" in params
      ? new URLSearchParams({ githubCode: params.code })
      : new URLSearchParams({ githubError: params.error });
  res.redirect(`/code-editor-dashboard/${encodeURIComponent(sessionId)}#${fragment.toString()}`);
}

/**
 * Back to the account page after a GitHub re-sign-in for a deletion, the one-time code (or an
 * error code) in the fragment, which no server or log sees.
 */
function redirectToAccount(res: Response, params: { deleteCode: string } | { deleteError: OAuthErrorCode }) {
  res.redirect(`/account#${new URLSearchParams(params).toString()}`);
}

/** A cookie's value; one that does not decode is no cookie (a forged header is not a 500). */
export function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.get("cookie") ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key !== name) continue;
    try {
      return decodeURIComponent(value.join("="));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function sameState(a: string, b: string | undefined): boolean {
  if (!b || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a), Buffer.from(b));
}
