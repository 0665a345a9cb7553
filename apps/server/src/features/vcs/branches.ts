import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { GIT_MESSAGES } from "@ensemble/protocol";
import { DomainError } from "../../errors";
import { GitCommandError, runGit } from "./git";
import { checkBranchName } from "./status";

/** git's empty tree: the "before" of a branch that starts from nothing. */
const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

export interface Identity {
  name: string;
  email: string;
}

/** Who the commits the server makes on its own account are by (a target branch's first commit). */
export const SERVER_IDENTITY: Identity = { name: "Ensemble", email: "ensemble@users.ensemble.invalid" };

/** The message of the empty first commit a target branch gets when a PR is made before it has one. */
export const ROOT_COMMIT_MESSAGE = "Initial commit";

const identityEnv = (who: Identity) => ({
  GIT_AUTHOR_NAME: who.name,
  GIT_AUTHOR_EMAIL: who.email,
  GIT_COMMITTER_NAME: who.name,
  GIT_COMMITTER_EMAIL: who.email,
});

/** The commit a name points to, or null when there is none. */
export async function revision(dir: string, name: string): Promise<string | null> {
  const result = await runGit(dir, ["rev-parse", "--verify", "--quiet", `${name}^{commit}`]).catch(
    () => null,
  );
  return result ? result.stdout.trim() : null;
}

/**
 * Commits the working tree as it is (the live workspace) onto a new branch `branch` whose
 * parent is `from`'s head, without touching the index or the working tree: a temporary index
 * does the staging. A `from` without a commit first gets an empty root commit (so the branch
 * shows every file as added, merges into `from` and can be published with a base). Refuses a
 * `branch` git would not take or that exists; null when the files are those of `from` already.
 */
export async function commitSnapshot(
  dir: string,
  options: { branch: string; from: string; message: string; author: Identity },
): Promise<{ head: string; base: string; files: string[] } | null> {
  await checkBranchName(dir, options.from);
  await checkBranchName(dir, options.branch);
  if (options.branch === options.from || (await revision(dir, `refs/heads/${options.branch}`)))
    throw new DomainError("conflict", GIT_MESSAGES.branchExists(options.branch));
  const from = await revision(dir, `refs/heads/${options.from}`);
  const index = path.join(dir, ".git", `index-snapshot-${randomBytes(6).toString("hex")}`);
  const env = { GIT_INDEX_FILE: index };
  try {
    await runGit(dir, from ? ["read-tree", from] : ["read-tree", "--empty"], { env });
    await runGit(dir, ["add", "--all"], { env });
    const tree = (await runGit(dir, ["write-tree"], { env })).stdout.trim();
    const files = await changedPaths(dir, from ?? EMPTY_TREE, tree);
    if (files.length === 0) return null;
    const base = from ?? (await createRootCommit(dir, options.from));
    const head = (
      await runGit(dir, ["commit-tree", tree, "-p", base, "-m", options.message], {
        env: identityEnv(options.author),
      })
    ).stdout.trim();
    // Create only: an existing branch of that name is never moved.
    await runGit(dir, ["update-ref", `refs/heads/${options.branch}`, head, ""]);
    return { head, base, files };
  } finally {
    await fs.rm(index, { force: true });
  }
}

/**
 * Gives the branch `name`, which has no commit, an empty first commit by the server. When
 * it is the checked-out branch, HEAD is then born: whatever the host staged stays staged.
 */
async function createRootCommit(dir: string, name: string): Promise<string> {
  // git knows the empty tree without storing it; stored, it travels with a push like any tree.
  await runGit(dir, ["hash-object", "-t", "tree", "-w", "/dev/null"]);
  const root = (
    await runGit(dir, ["commit-tree", EMPTY_TREE, "-m", ROOT_COMMIT_MESSAGE], {
      env: identityEnv(SERVER_IDENTITY),
    })
  ).stdout.trim();
  await runGit(dir, ["update-ref", `refs/heads/${name}`, root, ""]);
  return root;
}

async function changedPaths(dir: string, from: string, to: string): Promise<string[]> {
  const { stdout } = await runGit(dir, ["diff", "--name-only", "-z", "--no-renames", from, to]);
  return stdout.split("\0").filter(Boolean);
}

export interface FileChange {
  path: string;
  status: "added" | "modified" | "deleted" | "renamed";
  previousPath?: string;
  before: string;
  after: string;
  isBinary: boolean;
}

const CHANGE_WORDS: Record<string, FileChange["status"]> = {
  A: "added",
  M: "modified",
  T: "modified",
  D: "deleted",
  R: "renamed",
  C: "added",
};

/** Every file `head` changes since `base` (null: since nothing), with its text on both sides. */
export async function compareCommits(dir: string, base: string | null, head: string): Promise<FileChange[]> {
  const from = base ?? EMPTY_TREE;
  const { stdout } = await runGit(dir, ["diff", "--name-status", "-z", "-M", from, head]);
  const fields = stdout.split("\0");
  const changes: { path: string; status: FileChange["status"]; previousPath?: string }[] = [];
  for (let i = 0; i < fields.length; i++) {
    const code = fields[i]?.[0];
    const status = code ? CHANGE_WORDS[code] : undefined;
    if (!status) continue;
    if (code === "R" || code === "C") {
      const previousPath = fields[i + 1] ?? "";
      changes.push({ status, previousPath, path: fields[i + 2] ?? "" });
      i += 2;
    } else {
      changes.push({ status, path: fields[i + 1] ?? "" });
      i += 1;
    }
  }
  const show = async (commit: string | null, file: string | undefined) => {
    if (!commit || !file) return "";
    return (await runGit(dir, ["show", `${commit}:${file}`])).stdout;
  };
  return Promise.all(
    changes.map(async (change) => {
      const [before, after] = await Promise.all([
        change.status === "added" ? "" : show(base, change.previousPath ?? change.path),
        change.status === "deleted" ? "" : show(head, change.path),
      ]);
      const isBinary = before.includes("\0") || after.includes("\0");
      return { ...change, before: isBinary ? "" : before, after: isBinary ? "" : after, isBinary };
    }),
  );
}

/**
 * Merges `source` into the branch `target` without checking anything out: `git merge-tree`
 * makes the merged tree (a conflict refuses with nothing changed), a merge commit is made
 * (or `target` fast-forwards), and the ref moves only if nobody moved it meanwhile. When
 * `target` is the checked-out branch its index follows; the working tree, which is the live
 * workspace, is left as everyone sees it.
 */
export async function mergeBranch(
  dir: string,
  options: { source: string; target: string; message: string; author: Identity },
): Promise<{ commit: string }> {
  const ref = `refs/heads/${options.target}`;
  const target = await revision(dir, ref);
  const source = await revision(dir, options.source);
  if (!source) throw new DomainError("not_found", GIT_MESSAGES.noSuchBranch(options.source));
  const current = (await runGit(dir, ["symbolic-ref", "--quiet", "HEAD"]).catch(() => null))?.stdout.trim();
  const isCheckedOut = current === ref;
  if (isCheckedOut && (await hasStagedChanges(dir, target)))
    throw new DomainError(
      "conflict",
      `The host has staged changes on '${options.target}': commit or unstage them before approving.`,
    );

  let commit: string;
  if (!target || (await isAncestor(dir, target, source))) commit = source;
  else if (await isAncestor(dir, source, target)) return { commit: target };
  else {
    let tree: string;
    try {
      tree = (await runGit(dir, ["merge-tree", "--write-tree", target, source])).stdout.split("\n")[0] ?? "";
    } catch (error) {
      if (error instanceof GitCommandError && error.code === 1)
        throw new DomainError("conflict", GIT_MESSAGES.mergeConflict);
      throw error;
    }
    commit = (
      await runGit(dir, ["commit-tree", tree, "-p", target, "-p", source, "-m", options.message], {
        env: identityEnv(options.author),
      })
    ).stdout.trim();
  }
  await runGit(dir, ["update-ref", ref, commit, target ?? ""]);
  if (isCheckedOut) await runGit(dir, ["read-tree", commit]);
  return { commit };
}

async function isAncestor(dir: string, ancestor: string, of: string): Promise<boolean> {
  return runGit(dir, ["merge-base", "--is-ancestor", ancestor, of]).then(
    () => true,
    () => false,
  );
}

/** Whether the index differs from `head` (from an empty tree when the branch has no commit). */
async function hasStagedChanges(dir: string, head: string | null): Promise<boolean> {
  return runGit(dir, ["diff-index", "--cached", "--quiet", head ?? EMPTY_TREE]).then(
    () => false,
    () => true,
  );
}
