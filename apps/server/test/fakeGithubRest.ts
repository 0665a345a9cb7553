import type http from "node:http";
import { z } from "zod";
import { handlePulls, type PullsContext } from "./fakeGithubPulls";

/** A GitHub account as the fake describes it on `/user`. */
export interface FakeGithubUser {
  id: number;
  login: string;
  email: string | null;
  name?: string;
  emails?: { email: string; primary: boolean; verified: boolean }[];
}

/** A repository the fake holds; its git data lives in a real bare repository. */
export interface FakeGithubRepo {
  id: number;
  owner: string;
  name: string;
  private: boolean;
  description: string | null;
}

/** What the REST handlers need from the fake that owns them. */
export interface RestContext {
  state: { rateLimitedCalls: number };
  baseUrl: () => string;
  userFor: (authorization: string | undefined) => FakeGithubUser | undefined;
  findRepo: (owner: string, repo: string) => FakeGithubRepo | undefined;
  createRepo: (
    owner: string,
    name: string,
    body: { private?: boolean; description?: string | null; autoInit?: boolean },
  ) => Promise<FakeGithubRepo>;
  branchSha: (owner: string, repo: string, branch: string) => Promise<string | undefined>;
  pulls: PullsContext;
}

const CreateRepoSchema = z.object({
  name: z.string(),
  description: z.string().nullish(),
  private: z.boolean().optional(),
  auto_init: z.boolean().optional(),
});
const VALID_REPO_NAME = /^(?!\.\.?$)[A-Za-z0-9_.-]{1,100}$/;
const DOCS = "https://docs.github.com/rest";

/**
 * The REST endpoints of login and version control, with GitHub's statuses and error bodies
 * (`{ message, documentation_url, status }`). Every call needs a token; GitHub's anonymous
 * access to public data is not modelled.
 */
export async function handleRest(
  ctx: RestContext,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  url: URL,
  body: Record<string, unknown> | undefined,
): Promise<void> {
  const json = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
    res.end(JSON.stringify(payload));
  };
  const fail = (status: number, message: string, extra: Record<string, unknown> = {}) =>
    json(status, { message, ...extra, documentation_url: DOCS, status: String(status) });

  if (!req.headers.authorization) return fail(401, "Requires authentication");
  const user = ctx.userFor(req.headers.authorization);
  if (!user) return fail(401, "Bad credentials");
  if (ctx.state.rateLimitedCalls > 0) {
    ctx.state.rateLimitedCalls -= 1;
    const reset = String(Math.floor(Date.now() / 1000) + 3600);
    const headers = {
      "x-ratelimit-limit": "5000",
      "x-ratelimit-remaining": "0",
      "x-ratelimit-used": "5000",
      "x-ratelimit-reset": reset,
      "x-ratelimit-resource": "core",
    };
    const message = `API rate limit exceeded for user ID ${user.id}.`;
    return json(403, { message, documentation_url: DOCS }, headers);
  }

  if (await handlePulls(ctx.pulls, user, req, res, url, body)) return;
  const base = ctx.baseUrl();
  const method = req.method ?? "GET";
  const repoJson = (repo: FakeGithubRepo) => {
    const isOwner = repo.owner === user.login;
    const fullName = `${repo.owner}/${repo.name}`;
    return {
      id: repo.id,
      name: repo.name,
      full_name: fullName,
      owner: { login: repo.owner, type: "User" },
      private: repo.private,
      visibility: repo.private ? "private" : "public",
      description: repo.description,
      fork: false,
      url: `${base}/repos/${fullName}`,
      html_url: `${base}/${fullName}`,
      clone_url: `${base}/${fullName}.git`,
      default_branch: "main",
      permissions: { admin: isOwner, maintain: isOwner, push: isOwner, triage: isOwner, pull: true },
    };
  };

  if (method === "GET" && url.pathname === "/user") {
    return json(200, {
      id: user.id,
      login: user.login,
      name: user.name ?? null,
      email: user.email,
      avatar_url: `${base}/avatars/${user.login}`,
      html_url: `${base}/${user.login}`,
      type: "User",
    });
  }
  if (method === "GET" && url.pathname === "/user/emails") return json(200, user.emails ?? []);
  if (method === "POST" && url.pathname === "/user/repos") {
    if (!body) return fail(400, "Problems parsing JSON");
    const parsed = CreateRepoSchema.safeParse(body);
    if (!parsed.success) return fail(422, "Invalid request.", { errors: [parsed.error.message] });
    const { name, description, private: isPrivate, auto_init: autoInit } = parsed.data;
    const creationFailed = (error: Record<string, string>) =>
      fail(422, "Repository creation failed.", {
        errors: [{ resource: "Repository", field: "name", ...error }],
      });
    if (!VALID_REPO_NAME.test(name)) return creationFailed({ code: "custom", message: "name is invalid" });
    if (ctx.findRepo(user.login, name)) {
      return creationFailed({ code: "custom", message: "name already exists on this account" });
    }
    const repo = await ctx.createRepo(user.login, name, { private: isPrivate, description, autoInit });
    return json(201, repoJson(repo));
  }

  const repoPath = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(url.pathname);
  if (method === "GET" && repoPath) {
    const repo = ctx.findRepo(decodeURIComponent(repoPath[1] ?? ""), decodeURIComponent(repoPath[2] ?? ""));
    if (!repo || (repo.private && repo.owner !== user.login)) return fail(404, "Not Found");
    const rest = repoPath[3] ?? "";
    if (rest === "") return json(200, repoJson(repo));
    if (rest.startsWith("/branches/")) {
      // Branch names may hold slashes (feature/x), so the rest of the path is the name.
      const branch = decodeURIComponent(rest.slice("/branches/".length));
      const sha = branch ? await ctx.branchSha(repo.owner, repo.name, branch) : undefined;
      if (!sha) return fail(404, "Branch not found");
      const commitUrl = `${base}/repos/${repo.owner}/${repo.name}/commits/${sha}`;
      return json(200, { name: branch, commit: { sha, url: commitUrl }, protected: false });
    }
  }
  fail(404, "Not Found");
}
