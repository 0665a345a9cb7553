import { GIT_MESSAGES, type GitOperation, type GitStatus, type GitStatusEntry } from "@ensemble/protocol";
import { DomainError } from "../../errors";
import { runGit } from "./git";

/**
 * Reading a repository's state: the current branch, the branch list, `git status` (parsed,
 * and derived after a commit without running git again), branch-name checks.
 */

export async function currentBranch(dir: string): Promise<string> {
  return (await runGit(dir, ["branch", "--show-current"])).stdout.trim() || "HEAD";
}

/** Operations after which the branch list is read again. */
export const BRANCH_CHANGING = new Set<GitOperation["op"]>(["branch", "switch", "merge", "pull", "init"]);

/** `git status --porcelain=v1 -z --branch` of the whole working tree. */
export async function readRawStatus(dir: string): Promise<string> {
  const { stdout } = await runGit(dir, [
    "--no-optional-locks",
    "status",
    "--porcelain=v1",
    "-z",
    "--branch",
    "--untracked-files=all",
  ]);
  return stdout;
}

/**
 * What `git status --porcelain=v1 -z --branch` says right after committing the index, given
 * what it said before (nothing else changed): staged changes are gone, a change that was also
 * made in the working tree after staging stays as unstaged, and an unborn branch is born.
 */
export function statusAfterCommit(raw: string): string {
  const fields = raw.split("\0");
  const out: string[] = [];
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i] ?? "";
    if (field.startsWith("## ")) {
      out.push(field.startsWith("## No commits yet on ") ? `## ${field.slice(21)}` : field);
      continue;
    }
    if (field.length < 4) continue;
    const [x = " ", y = " "] = field;
    const file = field.slice(3);
    if (x === "R" || x === "C") i++;
    if (x === " " || x === "?" || x === "!") out.push(field);
    else if (y !== " ") out.push(` ${y} ${file}`);
  }
  return out.map((f) => `${f}\0`).join("");
}
/** Every local branch, the current one marked `* ` (it is listed even before its first commit). */
export async function listBranches(dir: string, current: string): Promise<string[]> {
  const { stdout } = await runGit(dir, ["for-each-ref", "--format=%(refname:short)", "refs/heads/"]);
  const names = stdout.split("\n").filter(Boolean);
  if (!names.includes(current)) names.unshift(current);
  return names.map((b) => (b === current ? `* ${b}` : `  ${b}`));
}

export async function checkBranchName(dir: string, name: string): Promise<void> {
  if (name.startsWith("-")) throw new DomainError("invalid_payload", GIT_MESSAGES.branchNameInvalid(name));
  try {
    await runGit(dir, ["check-ref-format", "--branch", name]);
  } catch {
    throw new DomainError("invalid_payload", GIT_MESSAGES.branchNameInvalid(name));
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

/** Parses `git status --porcelain=v1 -z --branch`; entries come sorted by path. */
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
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { branch, entries };
}
