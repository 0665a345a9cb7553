import { randomBytes, timingSafeEqual } from "node:crypto";
import {
  LoginBodySchema,
  type ProvidersResponse,
  RegisterBodySchema,
  SessionIdSchema,
  UpdateUserBodySchema,
  type UserRecordResponse,
} from "@ensemble/protocol";
import { type Request, type Response, Router } from "express";
import type { Config } from "../../env";
import { clientAddress, publicOrigin, requireUser } from "../../http/auth";
import { HttpError } from "../../http/errors";
import { parseBody } from "../../http/validate";
import type { Logger } from "../../logger";
import {
  authorizeUrl,
  exchangeCode,
  fetchProfile,
  GITHUB_SCOPES,
  type GithubOAuthConfig,
  GithubOAuthError,
} from "./github";
import type { AuthService } from "./service";

const STATE_COOKIE = "ensemble_oauth_state";
/** Set when the consent is for the Git panel of this session rather than for signing in. */
const GIT_SESSION_COOKIE = "ensemble_oauth_git_session";

/** The accounts API of spec §7, plus the GitHub login. */
export function authRoutes(auth: AuthService, config: Config, logger: Logger): Router {
  const router = Router();
  const authenticate = (req: Request) => requireUser(req, auth.authenticate);

  router.post("/auth/register", async (req, res) => {
    res.status(201).json(await auth.register(parseBody(req, RegisterBodySchema)));
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
    const data = await auth.updateOwn(caller.id, req.params.id, changes);
    const body: UserRecordResponse = { success: true, data, message: "Profile updated successfully" };
    res.json(body);
  });

  router.get("/auth/providers", (_req, res) => {
    const body: ProvidersResponse = { github: config.githubEnabled };
    res.json(body);
  });

  const github = githubConfig(config);
  router.get("/auth/github", (req, res) => {
    if (!github) throw new HttpError("oauth_disabled", "GitHub login is not configured on this server");
    const state = randomBytes(24).toString("base64url");
    const cookie = {
      httpOnly: true,
      sameSite: "lax" as const,
      secure: req.secure,
      maxAge: 10 * 60 * 1000,
      path: "/api/auth/github",
    };
    res.cookie(STATE_COOKIE, state, cookie);
    // `?for=git&session={id}`: the host's Git panel asks for a token that can push.
    const gitSession = req.query.for === "git" ? SessionIdSchema.safeParse(req.query.session) : undefined;
    if (gitSession?.success) res.cookie(GIT_SESSION_COOKIE, gitSession.data, cookie);
    else res.clearCookie(GIT_SESSION_COOKIE, { path: cookie.path });
    const scope = gitSession?.success ? GITHUB_SCOPES.git : GITHUB_SCOPES.login;
    res.redirect(authorizeUrl(github, callbackUrl(req, config), state, scope));
  });

  router.get("/auth/github/callback", async (req, res) => {
    if (!github) throw new HttpError("oauth_disabled", "GitHub login is not configured on this server");
    res.clearCookie(STATE_COOKIE, { path: "/api/auth/github" });
    res.clearCookie(GIT_SESSION_COOKIE, { path: "/api/auth/github" });
    const gitSession = SessionIdSchema.safeParse(readCookie(req, GIT_SESSION_COOKIE));
    const done = gitSession.success
      ? (params: { token: string; login: string } | { error: string }) =>
          redirectToEditor(res, gitSession.data, params)
      : (params: { token: string } | { error: string }) => redirectToCallback(res, params);
    const { code, state, error, error_description: description } = req.query;
    if (typeof error === "string") {
      return done({ error: typeof description === "string" ? description : error });
    }
    if (
      typeof code !== "string" ||
      typeof state !== "string" ||
      !sameState(state, readCookie(req, STATE_COOKIE))
    ) {
      return done({ error: "GitHub login expired or was tampered with. Please try again." });
    }
    try {
      const accessToken = await exchangeCode(github, code, callbackUrl(req, config));
      const profile = await fetchProfile(github, accessToken);
      // For the Git panel the token goes to the host's browser only, never into our storage.
      if (gitSession.success) return done({ token: accessToken, login: profile.login });
      redirectToCallback(res, { token: await auth.loginWithGithub(profile) });
    } catch (failure) {
      if (!(failure instanceof GithubOAuthError || failure instanceof HttpError)) throw failure;
      logger.warn({ reason: failure.message }, "github login failed");
      done({ error: failure.message });
    }
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

function redirectToCallback(res: Response, params: { token: string } | { error: string }) {
  res.redirect(`/auth/callback?${new URLSearchParams(params).toString()}`);
}

/**
 * Back to the session's editor with the GitHub token in the address's fragment, which
 * browsers never send to a server (so no log or proxy sees it); the page takes it out at once.
 */
function redirectToEditor(
  res: Response,
  sessionId: string,
  params: { token: string; login: string } | { error: string },
) {
  const fragment =
    "token" in params
      ? new URLSearchParams({ githubToken: params.token, githubLogin: params.login })
      : new URLSearchParams({ githubError: params.error });
  res.redirect(`/code-editor-dashboard/${encodeURIComponent(sessionId)}#${fragment.toString()}`);
}

function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.get("cookie") ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return decodeURIComponent(value.join("="));
  }
  return undefined;
}

function sameState(a: string, b: string | undefined): boolean {
  if (!b || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a), Buffer.from(b));
}
