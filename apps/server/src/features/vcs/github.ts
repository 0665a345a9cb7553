import { GIT_MESSAGES, type GithubTarget, type GitUser } from "@ensemble/protocol";
import { Octokit } from "@octokit/rest";
import { DomainError } from "../../errors";

export interface GithubConfig {
  /** REST API base (`GITHUB_API_URL`). */
  apiUrl: string;
  /** Smart-HTTP git base (`GITHUB_GIT_URL`): a repository is `{gitUrl}/{owner}/{repo}.git`. */
  gitUrl: string;
}

/** How long one REST call may take. */
const REST_TIMEOUT_MS = 10_000;

/**
 * GitHub for version control: the REST calls through Octokit (token check, repository
 * check, creation), and what git needs to reach the repository (its URL and the token as
 * an environment-only header). A token is used for the call it came with and never kept.
 */
export function createGithub(config: GithubConfig) {
  const client = (token: string) =>
    new Octokit({
      auth: token,
      baseUrl: config.apiUrl.replace(/\/$/, ""),
      userAgent: "Ensemble",
      request: { signal: AbortSignal.timeout(REST_TIMEOUT_MS) },
      // Octokit logs warnings and errors with the request (never the token); we report them ourselves.
      log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    });

  /** Runs one REST call, turning GitHub's refusals into the spec's messages. */
  async function call<T>(target: GithubTarget, work: (octokit: Octokit) => Promise<T>): Promise<T> {
    try {
      return await work(client(target.token));
    } catch (error) {
      throw githubRefusal(error, target);
    }
  }

  async function user(target: GithubTarget): Promise<GitUser> {
    const { data } = await call(target, (o) => o.rest.users.getAuthenticated());
    return {
      username: data.login,
      name: data.name || data.login,
      avatarUrl: data.avatar_url,
      url: data.html_url,
    };
  }

  async function repositoryExists(target: GithubTarget): Promise<boolean> {
    try {
      await call(target, (o) => o.rest.repos.get({ owner: target.owner, repo: target.repo }));
      return true;
    } catch (error) {
      if (error instanceof DomainError && error.code === "not_found") return false;
      throw error;
    }
  }

  return {
    /** Checks the token (GET /user) and the repository (GET /repos/{o}/{r}). */
    async connect(target: GithubTarget): Promise<GitUser> {
      const who = await user(target);
      if (!(await repositoryExists(target)))
        throw new DomainError("not_found", GIT_MESSAGES.repositoryNotFound(target.owner, target.repo));
      return who;
    },

    /**
     * Makes sure the repository exists before a push, as the spec's push helper does: a
     * missing repository of the token's own account is created (empty, public, so our
     * history arrives as it is); another account's missing repository is an error.
     */
    async ensureRepository(target: GithubTarget): Promise<{ user: GitUser; created: boolean }> {
      const who = await user(target);
      if (await repositoryExists(target)) return { user: who, created: false };
      if (who.username.toLowerCase() !== target.owner.toLowerCase())
        throw new DomainError("not_found", GIT_MESSAGES.repositoryNotFound(target.owner, target.repo));
      await call(target, (o) =>
        o.rest.repos.createForAuthenticatedUser({
          name: target.repo,
          private: false,
          auto_init: false,
          description: "Created from an Ensemble session",
        }),
      );
      return { user: who, created: true };
    },

    /**
     * Opens a pull request `head` → `base` with the spec's fallbacks: the pulls API, then the
     * GraphQL `createPullRequest` mutation, then the compare page (`quick_pull=1`) for the host
     * to finish in a new tab. A refused token or the rate limit stops at once.
     */
    async openPullRequest(
      target: GithubTarget,
      pull: { title: string; body: string; head: string; base: string },
    ): Promise<{ number: number; url: string } | { error: string; compareUrl: string }> {
      let reason: string;
      try {
        const { data } = await client(target.token).rest.pulls.create({
          owner: target.owner,
          repo: target.repo,
          ...pull,
        });
        return { number: data.number, url: data.html_url };
      } catch (error) {
        const refused = githubRefusal(error, target);
        if (refused.code === "github_auth" || refused.code === "rate_limited") throw refused;
        reason = pullRefusal(error, pull) ?? refused.message;
      }
      try {
        const octokit = client(target.token);
        const found = await octokit.graphql<{ repository: { id: string } | null }>(
          "query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { id } }",
          { owner: target.owner, name: target.repo },
        );
        if (found.repository) {
          const created = await octokit.graphql<{
            createPullRequest: { pullRequest: { number: number; url: string } };
          }>(
            `mutation($repositoryId: ID!, $baseRefName: String!, $headRefName: String!, $title: String!, $body: String) {
              createPullRequest(input: { repositoryId: $repositoryId, baseRefName: $baseRefName,
                headRefName: $headRefName, title: $title, body: $body }) { pullRequest { number url } }
            }`,
            {
              repositoryId: found.repository.id,
              baseRefName: pull.base,
              headRefName: pull.head,
              title: pull.title,
              body: pull.body,
            },
          );
          return created.createPullRequest.pullRequest;
        }
      } catch {
        // The compare page below is the last way.
      }
      const compare = new URL(
        `${config.gitUrl.replace(/\/$/, "")}/${encodeURIComponent(target.owner)}/${encodeURIComponent(target.repo)}/compare/${encodeURIComponent(pull.base)}...${encodeURIComponent(pull.head)}`,
      );
      compare.search = new URLSearchParams({
        quick_pull: "1",
        title: pull.title,
        body: pull.body,
      }).toString();
      return { error: reason, compareUrl: compare.toString() };
    },

    /** Posts `body` on pull request `number`'s conversation (POST /repos/{o}/{r}/issues/{n}/comments). */
    async commentOnPull(target: GithubTarget, number: number, body: string): Promise<void> {
      await call(target, (o) =>
        o.rest.issues.createComment({ owner: target.owner, repo: target.repo, issue_number: number, body }),
      );
    },

    /** The repository's smart-HTTP address: no credentials in it, ever. */
    remoteUrl: (target: GithubTarget) =>
      `${config.gitUrl.replace(/\/$/, "")}/${encodeURIComponent(target.owner)}/${encodeURIComponent(target.repo)}.git`,

    /** http remotes are allowed only when the configured git server is http (the test server). */
    allowsHttp: () => config.gitUrl.startsWith("http:"),

    /**
     * The token as git configuration in the environment (git-config(1) GIT_CONFIG_COUNT),
     * scoped to the git server: never in the arguments, `.git/config` or the remote URL.
     */
    gitEnv(target: GithubTarget): Record<string, string> {
      const basic = Buffer.from(`x-access-token:${target.token}`).toString("base64");
      return {
        GIT_CONFIG_COUNT: "1",
        GIT_CONFIG_KEY_0: `http.${config.gitUrl.replace(/\/$/, "")}/.extraHeader`,
        GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}`,
      };
    },
  };
}

export type Github = ReturnType<typeof createGithub>;

/** GitHub's 422s on a new pull request, in words (spec §8 and the issue's list). */
function pullRefusal(error: unknown, pull: { head: string; base: string }): string | undefined {
  const status = (error as { status?: unknown }).status;
  const body = (error as { response?: { data?: { errors?: { message?: string; field?: string }[] } } })
    .response?.data;
  const first = body?.errors?.[0];
  if (status === 403) return "GitHub refused: the token may not open pull requests in this repository.";
  if (status !== 422) return undefined;
  if (first?.message?.startsWith("A pull request already exists")) return first.message;
  if (first?.message?.startsWith("No commits between"))
    return `No commits between ${pull.base} and ${pull.head}.`;
  if (first?.field === "head" || first?.field === "base")
    return `GitHub does not have the branch '${first.field === "head" ? pull.head : pull.base}'.`;
  return first?.message ?? "GitHub refused the pull request.";
}

/** GitHub's answer to a REST call, as the spec's messages (never with the token in them). */
function githubRefusal(error: unknown, target: GithubTarget): DomainError {
  const status = (error as { status?: unknown }).status;
  const headers = (error as { response?: { headers?: Record<string, string | undefined> } }).response
    ?.headers;
  if (status === 401) return new DomainError("github_auth", GIT_MESSAGES.authFailed);
  if ((status === 403 || status === 429) && (headers?.["x-ratelimit-remaining"] === "0" || status === 429))
    return new DomainError("rate_limited", GIT_MESSAGES.rateLimited);
  if (status === 404 || status === 403)
    return new DomainError("not_found", GIT_MESSAGES.repositoryNotFound(target.owner, target.repo));
  if (typeof status === "number") {
    const message = String((error as { message?: unknown }).message ?? "").split(" - ")[0];
    return new DomainError(
      "git_failed",
      `GitHub API error: ${status} ${message}`.replaceAll(target.token, "***"),
    );
  }
  return new DomainError("git_failed", GIT_MESSAGES.unreachable);
}
