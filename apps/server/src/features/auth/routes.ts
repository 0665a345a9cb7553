import { randomBytes, timingSafeEqual } from "node:crypto";
import {
  LoginBodySchema,
  type ProvidersResponse,
  RegisterBodySchema,
  UpdateUserBodySchema,
  type UserRecordResponse,
} from "@ensemble/protocol";
import { type Request, type Response, Router } from "express";
import type { Config } from "../../env";
import { clientAddress, publicOrigin, requireUser } from "../../http/auth";
import { HttpError } from "../../http/errors";
import { parseBody } from "../../http/validate";
import type { Logger } from "../../logger";
import { authorizeUrl, fetchGithubProfile, type GithubOAuthConfig, GithubOAuthError } from "./github";
import type { AuthService } from "./service";

const STATE_COOKIE = "ensemble_oauth_state";

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
    res.cookie(STATE_COOKIE, state, {
      httpOnly: true,
      sameSite: "lax",
      secure: req.secure,
      maxAge: 10 * 60 * 1000,
      path: "/api/auth/github",
    });
    res.redirect(authorizeUrl(github, callbackUrl(req, config), state));
  });

  router.get("/auth/github/callback", async (req, res) => {
    if (!github) throw new HttpError("oauth_disabled", "GitHub login is not configured on this server");
    res.clearCookie(STATE_COOKIE, { path: "/api/auth/github" });
    const { code, state, error, error_description: description } = req.query;
    if (typeof error === "string") {
      return redirectToCallback(res, { error: typeof description === "string" ? description : error });
    }
    if (
      typeof code !== "string" ||
      typeof state !== "string" ||
      !sameState(state, readCookie(req, STATE_COOKIE))
    ) {
      return redirectToCallback(res, {
        error: "GitHub login expired or was tampered with. Please try again.",
      });
    }
    try {
      const profile = await fetchGithubProfile(github, code, callbackUrl(req, config));
      redirectToCallback(res, { token: await auth.loginWithGithub(profile) });
    } catch (failure) {
      if (!(failure instanceof GithubOAuthError || failure instanceof HttpError)) throw failure;
      logger.warn({ reason: failure.message }, "github login failed");
      redirectToCallback(res, { error: failure.message });
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

const callbackUrl = (req: Request, config: Config) =>
  `${publicOrigin(req, config.PUBLIC_URL)}/api/auth/github/callback`;

function redirectToCallback(res: Response, params: { token: string } | { error: string }) {
  res.redirect(`/auth/callback?${new URLSearchParams(params).toString()}`);
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
