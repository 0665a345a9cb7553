import fs from "node:fs/promises";
import path from "node:path";
import {
  GIT_MESSAGES,
  type GithubTarget,
  type GitOperation,
  type GitOutcome,
  type GitStatus,
  type GitUser,
} from "@ensemble/protocol";
import { memoryFlight, type SingleFlight } from "../../cluster/flights";
import { DomainError } from "../../errors";
import type { TreeApplied, WorkspaceAccess } from "../collab/index";
import { commitSnapshot, compareCommits, type Identity, mergeBranch, revision } from "./branches";
import { GitCommandError, runGit } from "./git";
import type { Github } from "./github";
import { createRemote, type PullToPublish } from "./remote";
import { type Caller, type Context, createRepositoryQueue, exists } from "./repositories";
import {
  BRANCH_CHANGING,
  checkBranchName,
  currentBranch,
  listBranches,
  parseStatus,
  readRawStatus,
  statusAfterCommit,
} from "./status";

export type { Author, Caller } from "./repositories";

/** What an operation says, before the repository's status and branches are added. */
interface Said {
  message: string;
  output?: string;
  user?: GitUser;
  /** The editors that git's change of the working tree touched in a special way. */
  applied?: TreeApplied;
  /** A commit was made and nothing else changed: the status follows from the previous one. */
  committed?: boolean;
}

/**
 * Version control on the server: one real git repository per session under
 * `DATA_DIR/repos/{sessionId}` (created on first use, branch `main`, remote `origin` once
 * GitHub is connected), whose working tree is written from the live workspace before each
 * command, so git compares what everyone sees. Only the host may operate it; one operation
 * at a time per session (the others wait their turn). Operations that change the working
 * tree (switch, merge, pull) reach every editor through collab's `applyTree`.
 */
export function createVcsService(deps: {
  reposDir: string;
  workspace: WorkspaceAccess;
  github: Github;
  /** Told the repository's status after every operation (everyone's status badge follows it). */
  onStatus?: (sessionId: string, status: GitStatus) => void;
  /** Refuses when the session was ended: its repository is then read only (DESIGN decision 15). */
  assertOpen: (sessionId: string) => Promise<void>;
  /** One git operation per repository across a cluster's nodes. */
  flights?: SingleFlight | undefined;
}) {
  const flights = deps.flights ?? memoryFlight();
  const queued = createRepositoryQueue(deps.reposDir, deps.workspace, flights);
  /**
   * Per session, what the last operation left: git's raw status and the branch list. Only
   * this service changes the repository, so they stay true until the next operation.
   */
  const known = new Map<string, { rawStatus: string; branches: string[] }>();
  const { github } = deps;
  const remote = createRemote(github);

  /** Runs the host's `work` after the session's previous operation, its working tree up to date. */
  function operate<T>(sessionId: string, caller: Caller, work: (context: Context) => Promise<T>): Promise<T> {
    if (!caller.isHost) return Promise.reject(new DomainError("forbidden", GIT_MESSAGES.hostOnly));
    return queued(sessionId, caller, work);
  }

  const withIdentity = async (caller: Caller, args: string[]) => {
    const author = await caller.author();
    return ["-c", `user.name=${author.name}`, "-c", `user.email=${author.email}`, ...args];
  };

  /**
   * Merges `ref` into the current branch, or refuses with nothing changed: a conflict is
   * found by `git merge-tree` before the working tree is touched, and a merge that still
   * stops half-way is aborted. The merged files then reach every editor.
   */
  async function mergeInto(context: Context, ref: string, label: string, unrelated: boolean): Promise<Said> {
    const { dir } = context;
    const allow = unrelated ? ["--allow-unrelated-histories"] : [];
    const head = await revision(dir, "HEAD");
    if (head) {
      const upToDate = await runGit(dir, ["merge-base", "--is-ancestor", ref, "HEAD"]).then(
        () => true,
        () => false,
      );
      if (upToDate) return { message: GIT_MESSAGES.alreadyUpToDate };
      try {
        await runGit(dir, ["merge-tree", "--write-tree", "--name-only", ...allow, "HEAD", ref]);
      } catch (error) {
        if (error instanceof GitCommandError && error.code === 1)
          throw new DomainError("conflict", GIT_MESSAGES.mergeConflict);
        throw error;
      }
    }
    try {
      await runGit(
        dir,
        await withIdentity(context.caller, [
          "merge",
          "--no-edit",
          "--quiet",
          ...allow,
          "-m",
          `Merge ${label}`,
          ref,
        ]),
      );
    } catch (error) {
      if (await exists(path.join(dir, ".git", "MERGE_HEAD")))
        await runGit(dir, ["merge", "--abort"]).catch(() => undefined);
      if (error instanceof GitCommandError && /overwritten|local changes|untracked/i.test(error.stderr))
        throw new DomainError("conflict", GIT_MESSAGES.wouldOverwrite(`Merging ${label}`));
      if (error instanceof GitCommandError && /CONFLICT/.test(error.stdout + error.stderr))
        throw new DomainError("conflict", GIT_MESSAGES.mergeConflict);
      throw error;
    }
    const applied = await applyWorkingTree(context);
    return { message: `Merged ${label} into ${await currentBranch(dir)}.`, applied };
  }

  /** Brings every editor to what git left in the working tree. */
  async function applyWorkingTree(context: Context): Promise<TreeApplied> {
    const applied = await deps.workspace.applyTree(
      context.sessionId,
      context.base,
      await context.tree.read(),
    );
    if (!applied) throw new DomainError("git_failed", GIT_MESSAGES.notLoaded);
    context.tree.forget(applied.refused.map((r) => r.path));
    return applied;
  }

  const operations: {
    [K in GitOperation["op"]]: (c: Context, o: Extract<GitOperation, { op: K }>) => Promise<Said>;
  } = {
    status: async () => ({ message: "" }),

    async add({ dir }, { paths }) {
      await runGit(dir, paths.length === 0 ? ["add", "--all"] : ["add", "--all", "--", ...paths]);
      return { message: paths.length ? `Staged ${paths.join(", ")}` : "Staged all changes" };
    },

    async unstage({ dir }, { paths }) {
      const all = paths.length === 0 ? ["."] : paths;
      if (await revision(dir, "HEAD")) await runGit(dir, ["restore", "--staged", "--", ...all]);
      else await runGit(dir, ["rm", "--cached", "-r", "--quiet", "--ignore-unmatch", "--", ...all]);
      return { message: paths.length ? `Unstaged ${paths.join(", ")}` : "Unstaged all changes" };
    },

    async commit(context, { message }) {
      const text = message.trim() || GIT_MESSAGES.defaultCommitMessage;
      let stdout: string;
      try {
        ({ stdout } = await runGit(
          context.dir,
          await withIdentity(context.caller, ["commit", "--no-verify", "--no-status", "-m", text]),
        ));
      } catch (error) {
        // git exits 1 and says so on stdout when nothing is staged.
        if (
          error instanceof GitCommandError &&
          error.code === 1 &&
          /nothing (added )?to commit|no changes added/.test(error.stdout)
        )
          throw new DomainError("invalid_payload", GIT_MESSAGES.nothingToCommit);
        throw error;
      }
      // git's first line names the commit: "[main (root-commit) 1a2b3c4] subject".
      const named = /^\[.*?([0-9a-f]{7,})\] (.*)$/m.exec(stdout);
      return { message: named ? `Committed ${named[1]} ${named[2]}` : "Committed", committed: true };
    },

    async branch({ dir }, { name }) {
      if (name === undefined) return { message: "" };
      await checkBranchName(dir, name);
      if (await revision(dir, `refs/heads/${name}`))
        throw new DomainError("conflict", GIT_MESSAGES.branchExists(name));
      if (!(await revision(dir, "HEAD")))
        throw new DomainError("invalid_payload", `${GIT_MESSAGES.noCommits} Commit first.`);
      await runGit(dir, ["branch", "--", name]);
      return { message: `Created branch '${name}'` };
    },

    async switch(context, { branch }) {
      const { dir } = context;
      await checkBranchName(dir, branch);
      if (!(await revision(dir, `refs/heads/${branch}`)))
        throw new DomainError("not_found", GIT_MESSAGES.noSuchBranch(branch));
      try {
        await runGit(dir, ["switch", "--quiet", branch]);
      } catch (error) {
        if (error instanceof GitCommandError && /would be overwritten/.test(error.stderr))
          throw new DomainError("conflict", GIT_MESSAGES.wouldOverwrite(`Switching to '${branch}'`));
        throw error;
      }
      return { message: `Switched to branch '${branch}'`, applied: await applyWorkingTree(context) };
    },

    async merge(context, { branch }) {
      await checkBranchName(context.dir, branch);
      if (!(await revision(context.dir, `refs/heads/${branch}`)))
        throw new DomainError("not_found", GIT_MESSAGES.noSuchBranch(branch));
      if (branch === (await currentBranch(context.dir))) return { message: GIT_MESSAGES.alreadyUpToDate };
      return mergeInto(context, `refs/heads/${branch}`, `'${branch}'`, false);
    },

    async log({ dir }) {
      if (!(await revision(dir, "HEAD"))) return { message: GIT_MESSAGES.noCommits };
      const { stdout } = await runGit(dir, ["log", "-n", "20", "--format=%h %an: %s"]);
      return { message: "", output: stdout.trim() };
    },

    /** What changed against HEAD (staged and not), as a unified diff. */
    async diff({ dir }) {
      const args = (await revision(dir, "HEAD"))
        ? ["diff", "--no-color", "HEAD"]
        : ["diff", "--no-color", "--cached"];
      const { stdout } = await runGit(dir, args);
      return { message: stdout.trim() === "" ? "No changes." : "", output: stdout };
    },

    // The repository exists from the first operation on; init says so.
    init: async ({ dir }) => ({ message: `Git repository ready on branch '${await currentBranch(dir)}'.` }),

    async connect({ dir }, { github: target }) {
      const user = await github.connect(target);
      await remote.setOrigin(dir, target);
      return { message: GIT_MESSAGES.authSucceeded, user };
    },

    /** Pushes the current branch; never forced, so a rejected push loses nothing. */
    async push({ dir }, { github: target }) {
      const { branch, created, user } = await remote.pushCurrentBranch(dir, target);
      const where = `${target.owner}/${target.repo}`;
      return { message: `Pushed ${branch} to ${where}${created ? " (repository created)" : ""}.`, user };
    },

    /** Fetches the current branch from GitHub and merges it in (unrelated histories allowed). */
    async pull(context, { github: target }) {
      const { dir } = context;
      const user = await github.connect(target);
      await remote.setOrigin(dir, target);
      const branch = await currentBranch(dir);
      try {
        await remote.git(dir, target, [
          "fetch",
          "--quiet",
          "--no-tags",
          "origin",
          `+refs/heads/${branch}:refs/remotes/origin/${branch}`,
        ]);
      } catch (error) {
        if (error instanceof GitCommandError && /couldn't find remote ref/.test(error.stderr))
          throw new DomainError("not_found", GIT_MESSAGES.noSuchBranch(branch));
        throw error;
      }
      const said = await mergeInto(context, `refs/remotes/origin/${branch}`, `origin/${branch}`, true);
      return { ...said, message: said.message.replace(/^Merged/, "Pulled"), user };
    },
  };

  /** Branch work for other features (pull requests): no role check here, the caller checks. */
  const repository = {
    /** Commits the live workspace onto a new branch from `from`'s head (null: nothing changed). */
    snapshot: (
      sessionId: string,
      options: { branch: string; from: string; message: string; author: Identity },
    ) => queued(sessionId, nobody, ({ dir }) => commitSnapshot(dir, options)),
    /** The files `head` changes since `base`, with both texts. */
    compare: (sessionId: string, base: string | null, head: string) =>
      queued(sessionId, nobody, ({ dir }) => compareCommits(dir, base, head)),
    /** Merges `source` into the branch `target` (a conflict merges nothing). */
    merge: (
      sessionId: string,
      options: { source: string; target: string; message: string; author: Identity },
    ) =>
      queued(sessionId, nobody, async ({ dir }) => {
        try {
          return await mergeBranch(dir, options);
        } finally {
          // The index may have moved under the remembered status.
          known.delete(sessionId);
        }
      }),

    /**
     * Publishes a PR to GitHub: pushes its commit as `branch` (never forced), gives GitHub the
     * base branch from the commit the PR was made on when it has none, and opens the pull
     * request with the spec's fallbacks.
     */
    publish: (sessionId: string, target: GithubTarget, pull: PullToPublish) =>
      queued(sessionId, nobody, ({ dir }) => remote.publishPull(dir, target, pull)),
  };

  return {
    repository,
    /**
     * Deletes the session's repository (the session was deleted), once the operation running
     * on it, on any node, is done.
     */
    async removeRepository(sessionId: string): Promise<void> {
      if (!/^[A-Za-z0-9_-]+$/.test(sessionId)) throw new DomainError("invalid_payload", "Invalid session id");
      const release = await flights.hold(`git:${sessionId}`);
      try {
        await fs.rm(path.join(deps.reposDir, sessionId), { recursive: true, force: true });
        known.delete(sessionId);
      } finally {
        await release();
      }
    },
    /**
     * Runs one operation for `caller` and answers what it said with the repository's status
     * and branches as they now are.
     */
    run(
      sessionId: string,
      caller: Caller,
      operation: GitOperation,
    ): Promise<GitOutcome & { applied?: TreeApplied }> {
      return operate(sessionId, caller, async (context) => {
        if (!readsOnly(operation)) await deps.assertOpen(sessionId);
        const perform = operations[operation.op] as (c: Context, o: GitOperation) => Promise<Said>;
        // A failed operation may have left anything behind: what we knew is read again next time.
        const { committed, ...said } = await perform(context, operation).catch((error: unknown) => {
          known.delete(sessionId);
          throw error;
        });
        const before = known.get(sessionId);
        // Each git process costs milliseconds: a commit of what the last status showed needs
        // no new status, and only these operations change the local branches.
        const rawStatus =
          committed && before && !context.wroteFiles
            ? statusAfterCommit(before.rawStatus)
            : await readRawStatus(context.dir);
        const status = parseStatus(rawStatus);
        const branches =
          before && !BRANCH_CHANGING.has(operation.op) && before.branches.includes(`* ${status.branch}`)
            ? before.branches
            : await listBranches(context.dir, status.branch);
        known.set(sessionId, { rawStatus, branches });
        deps.onStatus?.(sessionId, status);
        return { ...said, status, branches };
      });
    },
  };
}

export type VcsService = ReturnType<typeof createVcsService>;

/** Whether an operation only reads the repository: all an ended session allows. */
function readsOnly(operation: GitOperation): boolean {
  if (operation.op === "branch") return operation.name === undefined;
  return operation.op === "status" || operation.op === "log" || operation.op === "diff";
}

/** The caller of work another feature asked for: it checked the role itself. */
const nobody: Caller = {
  isHost: false,
  author: () => Promise.reject(new Error("repository work carries its own identity")),
};
