import fs from "node:fs/promises";
import path from "node:path";
import type { TreeApplied, WorkspaceAccess } from "../collab/index";
import { GitCommandError, runGit } from "./git";
import { Worktree } from "./worktree";

/** What people read when git refuses or fails (spec §5 and §8). */
export const VCS_MESSAGES = {
  hostOnly: "Only the session host can perform Git operations",
  branchNameInvalid: (name: string) => `'${name}' is not a valid branch name.`,
  branchExists: (name: string) => `A branch named '${name}' already exists.`,
  nothingToCommit: "Nothing to commit: stage changes with 'git add' first.",
  noCommits: "No commits yet.",
  notLoaded: "The session's files are not loaded. Rejoin the session and try again.",
  defaultCommitMessage: "Update from Ensemble",
  noSuchBranch: (name: string) => `Branch '${name}' does not exist in the repository.`,
  switchWouldOverwrite: (name: string) =>
    `Switching to '${name}' would overwrite changes that are not committed. Commit them first.`,
} as const;

/** A refused or failed git operation; the message is for people. */
export class VcsError extends Error {
  constructor(
    readonly code: "forbidden" | "invalid" | "conflict" | "failed",
    message: string,
  ) {
    super(message);
  }
}

/** One changed path, in the spec's words. */
export interface GitStatusEntry {
  path: string;
  status: "modified" | "added" | "deleted" | "renamed";
  staged: boolean;
}

export interface GitStatus {
  branch: string;
  entries: GitStatusEntry[];
}

export interface Author {
  name: string;
  email: string;
}

/** The session's host, as the caller of an operation (every operation checks it). */
export interface Caller {
  isHost: boolean;
}

/**
 * Version control on the server: one real git repository per session under
 * `DATA_DIR/repos/{sessionId}` (created on first use, branch `main`), whose working tree is
 * written from the live workspace before each command, so git compares what everyone sees.
 * Only the host may operate it; one operation at a time per session (the others wait).
 */
export function createVcsService(deps: { reposDir: string; workspace: WorkspaceAccess }) {
  const worktrees = new Map<string, Worktree>();
  const queues = new Map<string, Promise<unknown>>();

  /** Runs `work` after the session's previous operation, with its working tree up to date. */
  function operate<T>(
    sessionId: string,
    caller: Caller,
    work: (dir: string, tree: Worktree, base: Map<string, string>) => Promise<T>,
  ): Promise<T> {
    if (!caller.isHost) return Promise.reject(new VcsError("forbidden", VCS_MESSAGES.hostOnly));
    const previous = queues.get(sessionId) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(async () => {
        const files = deps.workspace.files(sessionId);
        if (!files) throw new VcsError("failed", VCS_MESSAGES.notLoaded);
        const tree = await open(sessionId);
        await tree.write(files);
        return work(tree.dir, tree, new Map(files.map((f) => [f.path, f.content])));
      });
    queues.set(sessionId, next);
    const forget = () => {
      if (queues.get(sessionId) === next) queues.delete(sessionId);
    };
    next.then(forget, forget);
    return next.catch((error: unknown) => {
      if (error instanceof GitCommandError)
        throw new VcsError("failed", error.stderr.trim() || error.message);
      throw error;
    });
  }

  async function open(sessionId: string): Promise<Worktree> {
    const known = worktrees.get(sessionId);
    if (known) return known;
    // Session ids are server-made (or the demo's): no path separators, but check anyway.
    if (!/^[A-Za-z0-9_-]+$/.test(sessionId)) throw new VcsError("invalid", "Invalid session id");
    const dir = path.join(deps.reposDir, sessionId);
    await fs.mkdir(dir, { recursive: true });
    try {
      await fs.access(path.join(dir, ".git"));
    } catch {
      await runGit(dir, ["init", "--quiet", "--initial-branch=main"]);
    }
    const tree = new Worktree(dir);
    worktrees.set(sessionId, tree);
    return tree;
  }

  const identity = (author: Author) => ["-c", `user.name=${author.name}`, "-c", `user.email=${author.email}`];

  return {
    status: (sessionId: string, caller: Caller): Promise<GitStatus> =>
      operate(sessionId, caller, async (dir) => {
        const { stdout } = await runGit(dir, [
          "status",
          "--porcelain=v1",
          "-z",
          "--branch",
          "--untracked-files=all",
        ]);
        return parseStatus(stdout);
      }),

    /** Stages the given paths, or everything when none are given. */
    add: (sessionId: string, caller: Caller, paths: string[]): Promise<void> =>
      operate(sessionId, caller, async (dir) => {
        await runGit(dir, paths.length === 0 ? ["add", "--all"] : ["add", "--all", "--", ...paths]);
      }),

    commit: (sessionId: string, caller: Caller, message: string, author: Author): Promise<string> =>
      operate(sessionId, caller, async (dir) => {
        const staged = await runGit(dir, ["diff", "--cached", "--name-only"]);
        if (staged.stdout.trim() === "") throw new VcsError("invalid", VCS_MESSAGES.nothingToCommit);
        await runGit(dir, [
          ...identity(author),
          "commit",
          "--quiet",
          "--no-verify",
          "-m",
          message || VCS_MESSAGES.defaultCommitMessage,
        ]);
        const { stdout } = await runGit(dir, ["log", "-1", "--format=%h %s"]);
        return stdout.trim();
      }),

    /** Lists the branches (the current one marked), or creates `name` from HEAD. */
    branch: (sessionId: string, caller: Caller, name: string | undefined): Promise<string[]> =>
      operate(sessionId, caller, async (dir) => {
        if (name !== undefined) {
          await checkBranchName(dir, name);
          try {
            await runGit(dir, ["branch", "--", name]);
          } catch (error) {
            if (error instanceof GitCommandError && /already exists/.test(error.stderr)) {
              throw new VcsError("conflict", VCS_MESSAGES.branchExists(name));
            }
            throw error;
          }
        }
        const { stdout } = await runGit(dir, ["branch", "--list", "--no-color"]);
        const current = (await runGit(dir, ["branch", "--show-current"])).stdout.trim();
        const branches = stdout
          .split("\n")
          .map((l) => l.replace(/^\*?\s+/, "").trim())
          .filter(Boolean);
        // An unborn main (no commit yet) is not listed by git; it is still the current branch.
        const all = branches.includes(current) ? branches : [current, ...branches];
        return all.map((b) => (b === current ? `* ${b}` : `  ${b}`));
      }),

    /**
     * Switches to an existing branch; the files git changed reach every editor as edits, and
     * what was typed while git ran is merged in or kept (never lost).
     */
    switchBranch: (sessionId: string, caller: Caller, branch: string): Promise<TreeApplied> =>
      operate(sessionId, caller, async (dir, tree, base) => {
        await checkBranchName(dir, branch);
        const known = await runGit(dir, ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`]).catch(
          () => null,
        );
        if (!known) throw new VcsError("invalid", VCS_MESSAGES.noSuchBranch(branch));
        try {
          await runGit(dir, ["switch", "--quiet", branch]);
        } catch (error) {
          if (error instanceof GitCommandError && /would be overwritten/.test(error.stderr)) {
            throw new VcsError("conflict", VCS_MESSAGES.switchWouldOverwrite(branch));
          }
          throw error;
        }
        const applied = await deps.workspace.applyTree(sessionId, base, await tree.read());
        if (!applied) throw new VcsError("failed", VCS_MESSAGES.notLoaded);
        return applied;
      }),

    log: (sessionId: string, caller: Caller): Promise<string> =>
      operate(sessionId, caller, async (dir) => {
        try {
          return (await runGit(dir, ["log", "-n", "20", "--format=%h %an: %s"])).stdout.trim();
        } catch (error) {
          if (error instanceof GitCommandError && /does not have any commits/.test(error.stderr))
            return VCS_MESSAGES.noCommits;
          throw error;
        }
      }),

    /** What changed against HEAD (staged and not), as a unified diff. */
    diff: (sessionId: string, caller: Caller): Promise<string> =>
      operate(sessionId, caller, async (dir) => {
        const head = await runGit(dir, ["rev-parse", "--verify", "--quiet", "HEAD"]).catch(() => null);
        const args = head ? ["diff", "--no-color", "HEAD"] : ["diff", "--no-color", "--cached"];
        return (await runGit(dir, args)).stdout;
      }),
  };
}

export type VcsService = ReturnType<typeof createVcsService>;

async function checkBranchName(dir: string, name: string): Promise<void> {
  if (name.startsWith("-")) throw new VcsError("invalid", VCS_MESSAGES.branchNameInvalid(name));
  try {
    await runGit(dir, ["check-ref-format", "--branch", name]);
  } catch {
    throw new VcsError("invalid", VCS_MESSAGES.branchNameInvalid(name));
  }
}

const STATUS_WORDS: Record<string, GitStatusEntry["status"]> = {
  M: "modified",
  T: "modified",
  A: "added",
  "?": "added",
  D: "deleted",
  R: "renamed",
  C: "added",
};

/** Parses `git status --porcelain=v1 -z --branch`. */
export function parseStatus(output: string): GitStatus {
  const fields = output.split("\0");
  let branch = "main";
  const entries: GitStatusEntry[] = [];
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i] ?? "";
    if (field.startsWith("## ")) {
      const head = field.slice(3);
      branch = head.startsWith("No commits yet on ") ? head.slice(18) : (head.split("...")[0] ?? head);
      continue;
    }
    if (field.length < 4) continue;
    const [x = " ", y = " "] = field;
    const file = field.slice(3);
    const code = x !== " " && x !== "?" ? x : y;
    const status = STATUS_WORDS[code];
    if (!status) continue;
    entries.push({ path: file, status, staged: x !== " " && x !== "?" });
    // A rename is followed by its old path.
    if (x === "R" || x === "C") i++;
  }
  return { branch, entries };
}
