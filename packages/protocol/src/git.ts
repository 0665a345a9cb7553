import { z } from "zod";
import { SessionIdSchema } from "./sessions";

/** What people read from version control (spec §5 and §8, and ours where the spec is silent). */
export const GIT_MESSAGES = {
  hostOnly: "Only the session host can perform Git operations",
  hostOnlyNotice: "Only the session host can control Git operations.",
  loginFirst: "Please login to GitHub first after creating a new session.",
  branchNameRequired: "'git branch' requires a branch name",
  branchNameInvalid: (name: string) => `'${name}' is not a valid branch name.`,
  branchExists: (name: string) => `A branch named '${name}' already exists.`,
  nothingToCommit: "Nothing to commit: stage changes with 'git add' first.",
  noCommits: "No commits yet.",
  notLoaded: "The session's files are not loaded. Rejoin the session and try again.",
  defaultCommitMessage: "Update from Ensemble",
  noSuchBranch: (name: string) => `Branch '${name}' does not exist in the repository.`,
  wouldOverwrite: (what: string) =>
    `${what} would overwrite changes that are not committed. Commit them first.`,
  mergeConflict: "Merge conflict detected. Please resolve conflicts manually.",
  alreadyUpToDate: "Already up to date.",
  operationFailed: (reason: string) => `Operation failed: ${reason}`,
  busy: "Another Git operation is running for this session. Try again when it ends.",
  // GitHub (spec §5, §8).
  allFieldsRequired: "All fields are required",
  tokenRequired: "Token is required",
  authRequired: "GitHub authentication required",
  repositoryRequired: "Repository owner and name are required",
  authFailed: "GitHub authentication failed. Please re-authenticate with a valid token.",
  rateLimited: "GitHub API rate limit exceeded. Please try again later.",
  repositoryNotFound: (owner: string, repo: string) =>
    `Repository ${owner}/${repo} not found or you don't have access to it`,
  authSucceeded: "GitHub authentication successful!",
  authCancelled: "Authentication cancelled or incomplete information provided.",
  pushRejected:
    "The remote branch has commits you do not have. Pull first, then push again (nothing was overwritten).",
  unreachable: "Could not reach GitHub. Please try again.",
} as const;

/** Browser storage keys of the spec for the GitHub connection (kept in the host's browser only). */
export const GIT_STORAGE_KEYS = {
  githubToken: "githubToken",
  gitRepoOwner: "gitRepoOwner",
  gitRepoName: "gitRepoName",
} as const;

/** A branch name as typed; `git check-ref-format` has the last word on the server. */
export const BranchNameSchema = z.string().trim().min(1, GIT_MESSAGES.branchNameRequired).max(200);

// Control characters, space and the characters git-check-ref-format(1) refuses anywhere.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses.
const REFUSED_IN_REF = /[\x00-\x20\x7f~^:?*[\\]|\.\.|@\{|\/\//;

/**
 * Whether git would take `name` as a branch name (`git check-ref-format --branch`'s rules):
 * so a browser can refuse a bad name before sending it; the server asks git itself.
 */
export function isGitBranchName(name: string): boolean {
  if (name === "" || name === "@" || name === "HEAD" || name.startsWith("-")) return false;
  if (REFUSED_IN_REF.test(name) || name.startsWith("/") || name.endsWith("/") || name.endsWith("."))
    return false;
  return name.split("/").every((part) => !part.startsWith(".") && !part.endsWith(".lock"));
}

/**
 * The host's GitHub connection, sent with each operation that needs it; the server keeps
 * none of it. Owner and repository follow GitHub's naming rules.
 */
export const GithubTargetSchema = z.object({
  token: z.string().trim().min(1, GIT_MESSAGES.tokenRequired).max(512),
  owner: z
    .string()
    .trim()
    .min(1, GIT_MESSAGES.allFieldsRequired)
    .max(100)
    .regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/, "Invalid repository owner"),
  repo: z
    .string()
    .trim()
    .min(1, GIT_MESSAGES.allFieldsRequired)
    .max(100)
    .regex(/^[A-Za-z0-9._-]+$/, "Invalid repository name")
    .refine((r) => r !== "." && r !== ".." && !r.endsWith(".git"), "Invalid repository name"),
});
export type GithubTarget = z.infer<typeof GithubTargetSchema>;

const PathsSchema = z.array(z.string().min(1).max(1024)).max(500);

/** One Git panel or API operation; every one is for the session host only. */
export const GitOperationSchema = z.discriminatedUnion("op", [
  z.object({ op: z.literal("status") }),
  /** Stages these paths, or everything when the list is empty. */
  z.object({ op: z.literal("add"), paths: PathsSchema }),
  /** Takes these paths out of the index (the working tree keeps them). */
  z.object({ op: z.literal("unstage"), paths: PathsSchema }),
  z.object({ op: z.literal("commit"), message: z.string().max(10_000) }),
  /** Lists the branches, or creates `name` from HEAD when given. */
  z.object({ op: z.literal("branch"), name: BranchNameSchema.optional() }),
  z.object({ op: z.literal("switch"), branch: BranchNameSchema }),
  z.object({ op: z.literal("merge"), branch: BranchNameSchema }),
  z.object({ op: z.literal("log") }),
  z.object({ op: z.literal("diff") }),
  z.object({ op: z.literal("init") }),
  /** Checks the token and the repository (GET /user, GET /repos/{o}/{r}) and sets `origin`. */
  z.object({ op: z.literal("connect"), github: GithubTargetSchema }),
  z.object({ op: z.literal("push"), github: GithubTargetSchema }),
  z.object({ op: z.literal("pull"), github: GithubTargetSchema }),
]);
export type GitOperation = z.infer<typeof GitOperationSchema>;
export type GitOperationName = GitOperation["op"];

export const GitRequestSchema = z.object({ sessionId: SessionIdSchema, operation: GitOperationSchema });
export type GitRequest = z.infer<typeof GitRequestSchema>;

export const GitFileStatusSchema = z.enum(["modified", "added", "deleted", "renamed"]);
export type GitFileStatus = z.infer<typeof GitFileStatusSchema>;

/** One changed path (spec §3's git status entry) and whether it is staged. */
export const GitStatusEntrySchema = z.object({
  path: z.string(),
  status: GitFileStatusSchema,
  staged: z.boolean(),
});
export type GitStatusEntry = z.infer<typeof GitStatusEntrySchema>;

export const GitStatusSchema = z.object({
  branch: z.string(),
  entries: z.array(GitStatusEntrySchema),
});
export type GitStatus = z.infer<typeof GitStatusSchema>;

/** The GitHub account a token belongs to (spec §3's git user). */
export const GitUserSchema = z.object({
  username: z.string(),
  name: z.string(),
  avatarUrl: z.string(),
  url: z.string(),
});
export type GitUser = z.infer<typeof GitUserSchema>;

/**
 * What every operation answers: a line for people, and the repository as it now is (status
 * and branches), so the panel needs no second round trip.
 */
export const GitOutcomeSchema = z.object({
  message: z.string(),
  /** Longer output: log lines, a diff. */
  output: z.string().optional(),
  status: GitStatusSchema,
  branches: z.array(z.string()),
  user: GitUserSchema.optional(),
});
export type GitOutcome = z.infer<typeof GitOutcomeSchema>;

/** Sent to the whole session after each git operation, so every editor's status badge follows. */
export const GitStatusUpdateSchema = z.object({ sessionId: SessionIdSchema, status: GitStatusSchema });
export type GitStatusUpdate = z.infer<typeof GitStatusUpdateSchema>;
