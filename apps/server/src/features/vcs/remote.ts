import { GIT_MESSAGES, type GithubTarget } from "@ensemble/protocol";
import { DomainError } from "../../errors";
import { revision } from "./branches";
import { GitCommandError, runGit } from "./git";
import type { Github } from "./github";
import { currentBranch } from "./status";

/** A PR as GitHub receives it: its commit, the branch to push it as, and its base. */
export interface PullToPublish {
  head: string;
  branch: string;
  base: string;
  /** The commit the PR was made on, pushed as `base` when GitHub has no such branch. */
  baseSha: string | null;
  title: string;
  body: string;
}

/**
 * git against GitHub for one session's repository: `origin` without credentials, the token
 * only in git's environment, pushes never forced. Callers run these inside the session's
 * queue (see service.ts).
 */
export function createRemote(github: Github) {
  /** Runs git against GitHub with the token in the environment only. */
  async function git(dir: string, target: GithubTarget, args: string[]) {
    try {
      return await runGit(dir, args, {
        env: github.gitEnv(target),
        allowHttp: github.allowsHttp(),
        timeoutMs: 60_000,
      });
    } catch (error) {
      if (
        error instanceof GitCommandError &&
        /Authentication failed|could not read Username|returned error: 40[13]|HTTP 40[13]/.test(error.stderr)
      )
        throw new DomainError("github_auth", GIT_MESSAGES.authFailed);
      throw error;
    }
  }

  /** Points `origin` at the GitHub repository (an address without credentials). */
  async function setOrigin(dir: string, target: GithubTarget): Promise<void> {
    const url = github.remoteUrl(target);
    const current = await runGit(dir, ["remote", "get-url", "origin"]).catch(() => null);
    if (!current) await runGit(dir, ["remote", "add", "origin", url]);
    else if (current.stdout.trim() !== url) await runGit(dir, ["remote", "set-url", "origin", url]);
  }

  return {
    git,
    setOrigin,

    /** Pushes the current branch (creating the account's missing repository); a rejected push loses nothing. */
    async pushCurrentBranch(dir: string, target: GithubTarget) {
      const { user, created } = await github.ensureRepository(target);
      if (!(await revision(dir, "HEAD")))
        throw new DomainError("invalid_payload", `${GIT_MESSAGES.noCommits} Commit before pushing.`);
      await setOrigin(dir, target);
      const branch = await currentBranch(dir);
      try {
        await git(dir, target, ["push", "--quiet", "origin", `refs/heads/${branch}:refs/heads/${branch}`]);
      } catch (error) {
        if (
          error instanceof GitCommandError &&
          /\[rejected\]|non-fast-forward|fetch first/.test(error.stderr)
        )
          throw new DomainError("conflict", GIT_MESSAGES.pushRejected);
        throw error;
      }
      // Remember what the remote now has, as `git push -u` would.
      await runGit(dir, ["update-ref", `refs/remotes/origin/${branch}`, `refs/heads/${branch}`]);
      return { branch, created, user };
    },

    /**
     * Publishes a PR: pushes its commit as `branch` (never forced), gives GitHub the base
     * branch from the commit the PR was made on when it has none, and opens the pull request
     * with the spec's fallbacks.
     */
    async publishPull(dir: string, target: GithubTarget, pull: PullToPublish) {
      await github.ensureRepository(target);
      await setOrigin(dir, target);
      const remoteBase = await git(dir, target, [
        "ls-remote",
        "--heads",
        "origin",
        `refs/heads/${pull.base}`,
      ]);
      const refspecs = [`${pull.head}:refs/heads/${pull.branch}`];
      if (remoteBase.stdout.trim() === "") {
        if (!pull.baseSha)
          throw new DomainError(
            "invalid_payload",
            `GitHub has no '${pull.base}' branch to open the pull request against: commit on ${pull.base} and push it first.`,
          );
        refspecs.push(`${pull.baseSha}:refs/heads/${pull.base}`);
      }
      await git(dir, target, ["push", "--quiet", "origin", ...refspecs]);
      return github.openPullRequest(target, {
        title: pull.title,
        body: pull.body,
        head: pull.branch,
        base: pull.base,
      });
    },
  };
}
