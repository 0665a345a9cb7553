import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { commitFiles, runGit, serveGitHttp } from "./fakeGitHttp";
import type { PullsContext } from "./fakeGithubPulls";
import { type FakeGithubRepo, type FakeGithubUser, handleRest, type RestContext } from "./fakeGithubRest";

export type { FakeGithubRepo, FakeGithubUser } from "./fakeGithubRest";

/** One request the fake received, kept without its credentials so tests can look for a leaked token. */
export interface FakeGithubRequest {
  method: string;
  path: string;
  hasAuth: boolean;
}

/** One commit as `log` reports it, newest first. */
export interface FakeGithubCommit {
  sha: string;
  subject: string;
  author: string;
}

const SAFE_NAME = /^(?!\.\.?$)[A-Za-z0-9_.-]+$/;
const GIT_PATH = /^\/([^/]+)\/([^/]+)\.git(\/.*)$/;

/**
 * A local server speaking the part of GitHub our app uses, over real HTTP on loopback:
 * OAuth (`/login/oauth/authorize` approves at once, `/login/oauth/access_token` swaps the code
 * for a token), the REST calls of login and version control (see fakeGithubRest.ts), and git
 * smart HTTP at `/{owner}/{repo}.git` backed by real bare repositories in a temp folder.
 * Tokens come from OAuth, from `options.tokens`, or from `issueToken`.
 */
export async function startFakeGithub(options: {
  clientId?: string;
  clientSecret?: string;
  user: FakeGithubUser;
  port?: number;
  tokens?: Record<string, FakeGithubUser>;
}) {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "fake-github-"));
  const codes = new Map<string, FakeGithubUser>();
  const tokens = new Map<string, FakeGithubUser>(Object.entries(options.tokens ?? {}));
  const repos = new Map<string, FakeGithubRepo>();
  const requests: FakeGithubRequest[] = [];
  let counter = 0;
  const state = { user: options.user, tokenRequests: 0, rateLimitedCalls: 0 };
  const clientId = options.clientId ?? "fake-client-id";
  const clientSecret = options.clientSecret ?? "fake-client-secret";

  const gitDir = (owner: string, repo: string) => path.join(root, owner, `${repo}.git`);
  const findRepo = (owner: string, repo: string) => repos.get(`${owner}/${repo}`.toLowerCase());
  const existingGitDir = (owner: string, repo: string) => {
    const found = findRepo(owner, repo);
    if (!found) throw new Error(`fake GitHub has no repository ${owner}/${repo}`);
    return gitDir(found.owner, found.name);
  };

  async function addRepo(
    owner: string,
    name: string,
    meta: { private?: boolean; description?: string | null; files?: Record<string, string> },
  ): Promise<FakeGithubRepo> {
    if (!SAFE_NAME.test(owner) || !SAFE_NAME.test(name))
      throw new Error(`bad repository name ${owner}/${name}`);
    if (findRepo(owner, name)) throw new Error(`${owner}/${name} already exists`);
    const dir = gitDir(owner, name);
    await runGit(["init", "--bare", "--quiet", "--initial-branch=main", dir]);
    const repo = {
      id: ++counter,
      owner,
      name,
      private: meta.private ?? true,
      description: meta.description ?? null,
    };
    repos.set(`${owner}/${name}`.toLowerCase(), repo);
    if (meta.files) await commitFiles(dir, "main", meta.files, "Initial commit");
    return repo;
  }

  const userFor = (header: string | undefined) => {
    const token = tokenFrom(header);
    return token === undefined ? undefined : tokens.get(token);
  };

  const branchSha = (owner: string, repo: string, branch: string) =>
    runGit([
      "--git-dir",
      gitDir(owner, repo),
      "rev-parse",
      "--verify",
      "--quiet",
      `refs/heads/${branch}^{commit}`,
    ])
      .then((sha) => sha.trim())
      .catch(() => undefined);
  const pulls: PullsContext = {
    pulls: [],
    comments: [],
    refuse: {
      rest: { calls: 0, status: 500 },
      graphql: { calls: 0 },
      comments: { calls: 0, status: 500 },
    },
    baseUrl: () => baseUrl,
    findRepo,
    findRepoById: (id) => [...repos.values()].find((r) => r.id === id),
    branchSha,
    commitsBetween: async (owner, repo, base, head) =>
      Number(
        (
          await runGit([
            "--git-dir",
            gitDir(owner, repo),
            "rev-list",
            "--count",
            `refs/heads/${base}..refs/heads/${head}`,
          ])
        ).trim(),
      ),
    filesBetween: async (owner, repo, base, head) => {
      const listed = await runGit([
        "--git-dir",
        gitDir(owner, repo),
        "diff",
        "--name-status",
        "--no-renames",
        `refs/heads/${base}...refs/heads/${head}`,
      ]);
      const statuses: Record<string, string> = { A: "added", M: "modified", D: "removed" };
      return listed
        .split("\n")
        .filter(Boolean)
        .map((line) => {
          const [code = "", filename = ""] = line.split("\t");
          return { filename, status: statuses[code] ?? "changed" };
        });
    },
  };

  const rest: RestContext = {
    state,
    baseUrl: () => baseUrl,
    userFor,
    findRepo,
    createRepo: (owner, name, body) =>
      addRepo(owner, name, {
        private: body.private,
        description: body.description,
        files: body.autoInit ? { "README.md": `# ${name}\n\n${body.description ?? ""}\n` } : undefined,
      }),
    branchSha,
    pulls,
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    requests.push({
      method: req.method ?? "GET",
      path: req.url ?? "/",
      hasAuth: !!req.headers.authorization,
    });
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    };
    if (req.method === "GET" && url.pathname === "/login/oauth/authorize") {
      if (url.searchParams.get("client_id") !== clientId) return json(404, { error: "unknown client" });
      const code = `code-${++counter}`;
      codes.set(code, state.user);
      const back = new URL(url.searchParams.get("redirect_uri") ?? "");
      back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      res.writeHead(302, { location: back.toString() }).end();
      return;
    }
    if (req.method === "POST" && url.pathname === "/login/oauth/access_token") {
      state.tokenRequests += 1;
      const body = parseJsonObject(await readBody(req)) ?? {};
      const user = codes.get(String(body.code ?? ""));
      if (body.client_id !== clientId || body.client_secret !== clientSecret || !user) {
        return json(200, {
          error: "bad_verification_code",
          error_description: "The code passed is incorrect or expired.",
        });
      }
      codes.delete(String(body.code));
      const token = `gho_${++counter}`;
      tokens.set(token, user);
      return json(200, { access_token: token, token_type: "bearer", scope: "read:user,user:email" });
    }
    if (req.method === "GET" && url.pathname.startsWith("/avatars/")) {
      // Keeps avatars on loopback: an e2e browser must not fetch from the internet.
      res.writeHead(200, { "content-type": "image/svg+xml" });
      res.end(
        '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40"/></svg>',
      );
      return;
    }
    const git = GIT_PATH.exec(url.pathname);
    if (git) return serveGit(req, res, url, git[1] ?? "", git[2] ?? "");
    try {
      await handleRest(rest, req, res, url, parseJsonObject(await readBody(req)));
    } catch (error) {
      if (!res.headersSent) json(500, { message: `fake GitHub failed: ${String(error)}` });
    }
  });

  function serveGit(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    url: URL,
    owner: string,
    name: string,
  ) {
    const text = (status: number, body: string, headers: Record<string, string> = {}) =>
      res.writeHead(status, { "content-type": "text/plain", ...headers }).end(`${body}\n`);
    const user = userFor(req.headers.authorization);
    // Like GitHub: a challenge, so git reports an authentication failure instead of a missing repo.
    if (!user) return text(401, "Invalid username or token.", { "www-authenticate": 'Basic realm="GitHub"' });
    const repo = findRepo(owner, name);
    if (!repo || (repo.private && repo.owner !== user.login)) return text(404, "Repository not found.");
    const isPush =
      url.searchParams.get("service") === "git-receive-pack" || url.pathname.endsWith("/git-receive-pack");
    if (isPush && repo.owner !== user.login) {
      return text(403, `Permission to ${repo.owner}/${repo.name}.git denied to ${user.login}.`);
    }
    serveGitHttp(req, res, {
      projectRoot: root,
      pathInfo: url.pathname.replace(GIT_PATH, `/${repo.owner}/${repo.name}.git$3`),
      query: url.search.slice(1),
      remoteUser: user.login,
    });
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: baseUrl,
    /** Where Octokit's `baseUrl` points: GitHub's REST paths sit at the root, as on api.github.com. */
    apiUrl: baseUrl,
    /** Where clones point: `${gitUrl}/{owner}/{repo}.git`. */
    gitUrl: baseUrl,
    state,
    /** Every request received, oldest first, without credentials. */
    requests,
    /** Makes `/login/oauth/authorize` hand out a code for `code` without a browser. */
    issueCode(user: FakeGithubUser = state.user) {
      const code = `code-${++counter}`;
      codes.set(code, user);
      return code;
    },
    /** A fresh token for `user`, good for REST and git. */
    issueToken(user: FakeGithubUser = state.user) {
      const token = `ghp_fake${++counter}`;
      tokens.set(token, user);
      return token;
    },
    /** Every pull request opened on the fake, oldest first. */
    pulls: pulls.pulls,
    /** Every comment posted on a pull request, oldest first. */
    comments: pulls.comments,
    /** Makes the next `calls` comments posted on pull requests answer `status`. */
    refuseComments(calls: number, status = 500) {
      pulls.refuse.comments = { calls, status };
    },
    /** Makes the next `rest` pull creations answer `status`, and the next `graphql` ones fail. */
    refusePulls(refuse: { rest?: number; status?: number; graphql?: number }) {
      pulls.refuse.rest = { calls: refuse.rest ?? 0, status: refuse.status ?? 500 };
      pulls.refuse.graphql = { calls: refuse.graphql ?? 0 };
    },
    /** Makes the next `calls` authenticated REST calls answer GitHub's 403 rate-limit error. */
    exhaustRateLimit(calls = 1) {
      state.rateLimitedCalls = calls;
    },
    /** A bare repository (private unless told otherwise), seeded with one commit on `main` when given files. */
    async createRepo(
      owner: string,
      repo: string,
      seed: { files?: Record<string, string>; private?: boolean; description?: string } = {},
    ) {
      await addRepo(owner, repo, seed);
      return { cloneUrl: `${baseUrl}/${owner}/${repo}.git`, gitDir: gitDir(owner, repo) };
    },
    /** The content of `file` at `ref` in the repository as GitHub holds it. */
    readFile(owner: string, repo: string, ref: string, file: string) {
      return runGit(["--git-dir", existingGitDir(owner, repo), "show", `${ref}:${file}`]);
    },
    /** The history of `ref`, newest first. */
    async log(owner: string, repo: string, ref: string): Promise<FakeGithubCommit[]> {
      const out = await runGit([
        "--git-dir",
        existingGitDir(owner, repo),
        "log",
        "--format=%H%x00%s%x00%an",
        ref,
      ]);
      return out
        .split("\n")
        .filter(Boolean)
        .map((line) => {
          const [sha = "", subject = "", author = ""] = line.split("\0");
          return { sha, subject, author };
        });
    },
    /** Simulates someone else pushing to GitHub: commits `files` (null deletes) on `branch`, returns the sha. */
    commitOnRemote(
      owner: string,
      repo: string,
      branch: string,
      files: Record<string, string | null>,
      message: string,
    ) {
      return commitFiles(existingGitDir(owner, repo), branch, files, message);
    },
    /** Stops the server and deletes every repository it held. */
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await fs.rm(root, { recursive: true, force: true });
    },
  };
}

/** The token in `Authorization: token X`, `Bearer X`, or Basic with the token as password (git's way). */
function tokenFrom(header: string | undefined): string | undefined {
  const match = /^(\w+)\s+(\S+)$/.exec(header ?? "");
  const scheme = match?.[1]?.toLowerCase();
  const value = match?.[2] ?? "";
  if (scheme === "token" || scheme === "bearer") return value;
  if (scheme !== "basic") return undefined;
  const decoded = Buffer.from(value, "base64").toString();
  const colon = decoded.indexOf(":");
  return colon >= 0 ? decoded.slice(colon + 1) : undefined;
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text || "{}");
    return value && typeof value === "object" && !Array.isArray(value) ? { ...value } : undefined;
  } catch {
    return undefined;
  }
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = "";
    req.on("data", (chunk: Buffer) => {
      data += chunk.toString();
    });
    req.on("end", () => resolve(data));
    req.on("error", reject);
  });
}

/** The OAuth app the GitHub sign-in tests register with the fake. */
export const TEST_GITHUB_CLIENT = { clientId: "test-client", clientSecret: "test-client-secret" };

/** A server's settings for signing in through the fake GitHub at `url` as TEST_GITHUB_CLIENT. */
export function githubSignInEnv(url: string): Record<string, string> {
  return {
    GITHUB_CLIENT_ID: TEST_GITHUB_CLIENT.clientId,
    GITHUB_CLIENT_SECRET: TEST_GITHUB_CLIENT.clientSecret,
    GITHUB_OAUTH_URL: url,
    GITHUB_API_URL: url,
  };
}
