import { z } from "zod";
import { GIT_MESSAGES, GithubTargetSchema, isGitBranchName } from "./git";
import { SessionIdSchema } from "./sessions";

const COMMENT_NOT_POSTED = "The review comment was not posted there";

/** What people read about pull requests (spec §5, §6, §8, and ours where it is silent). */
export const PR_MESSAGES = {
  titleRequired: "Please provide a title for your PR.",
  sessionMissing: "Session ID is missing. Cannot create PR.",
  duplicateTitle: (title: string) => `A PR with the title "${title}" already exists for this session.`,
  waitingForReview: "Your pull request is now waiting for review by the host.",
  hostCanReview: "You can type 'pr review' to review pull requests.",
  creationCancelled: "PR creation cancelled",
  idRequired: "Please provide a PR ID. Usage: pr status <ID>",
  notFound: (id: string) => `Pull request with ID ${id} not found.`,
  reviewNotFound: (id: string) => `PR with ID ${id} not found`,
  unknownAction: (action: string) => `Unknown review action: ${action}`,
  unknownCommand: (command: string) =>
    `Unknown PR command: ${command}. Type 'pr help' for available commands.`,
  hostOnlyReview: "Only the session host can review pull requests.",
  notPending: "Only a pending pull request can be reviewed.",
  noChanges: "There is nothing to propose: the files are the same as on the target branch.",
  mergeConflict: "Merge conflict detected. Please resolve conflicts manually.",
  createdForReview: "Pull request created for host review!",
  createdOnGithub: "Pull request created successfully on GitHub!",
  githubFailed: "PR created locally, but GitHub PR failed",
  commentNotPostedNote: COMMENT_NOT_POSTED,
  commentNotPosted: (reason: string) =>
    `Pull request created successfully on GitHub! ${COMMENT_NOT_POSTED}: ${reason}`,
  defaultTitle: "Untitled PR",
} as const;

/** Bounds the server enforces on what a PR holds. */
export const PR_LIMITS = {
  titleMax: 200,
  descriptionMax: 10_000,
  commentMax: 10_000,
  /** Pull requests one session may hold. */
  perSession: 200,
} as const;

export const PrStatusSchema = z.enum(["pending", "approved", "rejected", "changes-requested", "merged"]);
export type PrStatus = z.infer<typeof PrStatusSchema>;

export const ReviewActionSchema = z.enum(["approve", "reject", "request-changes"]);
export type ReviewAction = z.infer<typeof ReviewActionSchema>;

/** A pull request as everyone in the session sees it (spec §3). */
export const PullRequestSchema = z.object({
  id: z.string(),
  sessionId: z.string(),
  title: z.string(),
  description: z.string(),
  author: z.string(),
  /** The account id, or `guest-…` for a guest: whom review outcomes are told to. */
  authorId: z.string(),
  sourceBranch: z.string(),
  targetBranch: z.string(),
  status: PrStatusSchema,
  /**
   * The session's language when the PR was made, as stored: a record may since have been
   * removed, and a PR is history, so this is not checked against the records.
   */
  language: z.string(),
  /** The paths the PR changes. */
  files: z.array(z.string()),
  createdAt: z.string(),
  reviewedAt: z.string().nullable(),
  reviewedBy: z.string().nullable(),
  /** The reviewer's comment, when they left one. */
  comments: z.string().nullable(),
  prNumber: z.number().int().nullable(),
  prUrl: z.string().nullable(),
});
export type PullRequest = z.infer<typeof PullRequestSchema>;

/** Asks for a pull request of the workspace as it is now. */
export const CreatePrSchema = z.object({
  sessionId: SessionIdSchema,
  title: z.string().max(PR_LIMITS.titleMax),
  description: z.string().max(PR_LIMITS.descriptionMax).optional(),
  targetBranch: z.string().max(200).optional(),
  /** The PR's branch, which must not exist yet; without it the server names one from the title. */
  sourceBranch: z
    .string()
    .trim()
    .max(200)
    .refine(isGitBranchName, { error: (issue) => GIT_MESSAGES.branchNameInvalid(String(issue.input)) })
    .optional(),
});
export type CreatePr = z.infer<typeof CreatePrSchema>;

export const ReviewPrSchema = z.object({
  sessionId: SessionIdSchema,
  prId: z.string().max(100),
  /** A plain string: an unknown action is answered with the spec's failure, not a schema error. */
  action: z.string().max(50),
  comment: z.string().max(PR_LIMITS.commentMax).optional(),
  /** The host's GitHub connection: approving then also opens the pull request on GitHub. */
  github: GithubTargetSchema.optional(),
});
export type ReviewPr = z.infer<typeof ReviewPrSchema>;

export const PrRefSchema = z.object({ sessionId: SessionIdSchema, prId: z.string().max(100) });

/** One changed file of a PR: its text on the target side and on the PR's side ("" when absent). */
export const PrFileDiffSchema = z.object({
  path: z.string(),
  status: z.enum(["added", "modified", "deleted", "renamed"]),
  /** For a rename, the path it had. */
  previousPath: z.string().optional(),
  before: z.string(),
  after: z.string(),
  /** A file that is not text (shown as such, without contents). */
  isBinary: z.boolean(),
});
export type PrFileDiff = z.infer<typeof PrFileDiffSchema>;

export const PrDiffSchema = z.object({ prId: z.string(), files: z.array(PrFileDiffSchema) });
export type PrDiff = z.infer<typeof PrDiffSchema>;

/**
 * The spec's PR sync events (§4), sent to the whole session. `pr-sync` carries every PR of
 * the session (on join and on `requestPRSync`); the others carry the one PR they name.
 */
export const PrSyncSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("pr-sync"), sessionId: z.string(), prs: z.array(PullRequestSchema) }),
  z.object({
    type: z.enum([
      "pr-added",
      "pr-updated",
      "pr-approved",
      "pr-rejected",
      "pr-changes-requested",
      "pr-deleted",
    ]),
    sessionId: z.string(),
    pr: PullRequestSchema,
  }),
  z.object({ type: z.literal("pr-cleared"), sessionId: z.string() }),
  z.object({ type: z.literal("review-requested"), sessionId: z.string(), pr: PullRequestSchema }),
]);
export type PrSync = z.infer<typeof PrSyncSchema>;

/** Told to a PR's author (on every socket of theirs) when the host reviewed it. */
export const PrReviewedSchema = z.object({
  sessionId: z.string(),
  pr: PullRequestSchema,
  message: z.string(),
});
export type PrReviewed = z.infer<typeof PrReviewedSchema>;

/** The answer to a review: the PR as it now is, and what to tell the host (GitHub's outcome). */
export const ReviewAckSchema = z.object({
  pr: PullRequestSchema,
  message: z.string(),
  /** When GitHub would not open the pull request: its compare page, to finish there (spec §8). */
  compareUrl: z.string().optional(),
});
export type ReviewAck = z.infer<typeof ReviewAckSchema>;

/** The answer to a creation: the PR, and what to tell its author. */
export const CreatePrAckSchema = z.object({ pr: PullRequestSchema, message: z.string() });
export type CreatePrAck = z.infer<typeof CreatePrAckSchema>;
