import {
  type CreatePrAck,
  type GithubTarget,
  PR_LIMITS,
  PR_MESSAGES,
  type PrDiff,
  type PrReviewed,
  type PrStatus,
  type PrSync,
  type PullRequest,
  type ReviewAck,
  ReviewActionSchema,
  type TerminalEntry,
} from "@ensemble/protocol";
import type { Queryable } from "../../db/index";
import { DomainError } from "../../errors";
import type { Actor } from "../../realtime/presence";
import type { SessionService } from "../sessions/index";
import type { Author, Github, VcsService } from "../vcs/index";
import type { PullRequestRepo, StoredPullRequest } from "./repo";

/** Who asks: the request's actor, of which pull requests read the id, name, role and account. */
export type Requester = Pick<Actor, "id" | "name" | "isHost" | "userId">;

/** How the service reaches people: the whole session, a PR's author, the shared terminal. */
export interface PullRequestEvents {
  sync(sessionId: string, event: PrSync): void;
  /** Tells the author on every socket of theirs in the session; false when none is connected. */
  reviewed(sessionId: string, authorId: string, event: PrReviewed): Promise<boolean>;
  announce(sessionId: string, entries: TerminalEntry[]): Promise<unknown>;
}

const STATUS_OF = {
  approve: "approved",
  reject: "rejected",
  "request-changes": "changes-requested",
} as const;
const SYNC_OF = {
  approved: "pr-approved",
  rejected: "pr-rejected",
  "changes-requested": "pr-changes-requested",
} as const;
const OUTCOME_WORDS: Record<keyof typeof SYNC_OF, string> = {
  approved: "approved and merged",
  rejected: "rejected",
  "changes-requested": "sent back with changes requested",
};

/** What the author and the terminal are told of a review. */
function reviewText(pr: PullRequest): string {
  const status = pr.status === "merged" ? "approved" : pr.status;
  const outcome = OUTCOME_WORDS[status as keyof typeof SYNC_OF] ?? status;
  const comment = pr.comments ? ` Comment: ${pr.comments}` : "";
  return `Pull request ${pr.id} "${pr.title}" was ${outcome} by ${pr.reviewedBy ?? "the host"}.${comment}`;
}

/** The title as a branch name's middle: lower case, non-alphanumerics as hyphens, 20 characters. */
export function titleSlug(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "-")
    .slice(0, 20);
}

const TARGET_BRANCH = /^(?!-)(?!.*\.\.)[A-Za-z0-9._/-]{1,200}$/;

/**
 * Pull requests (DESIGN decision 14): each one is a branch of the session's repository made
 * from the workspace as its author saw it, from the target's head; the host reviews it
 * against the real diff, and approving merges it on the server (a conflict merges nothing).
 */
export function createPullRequestService(deps: {
  repo: PullRequestRepo;
  vcs: VcsService;
  github: Pick<Github, "commentOnPull">;
  sessions: SessionService;
  authorOf: (userId: string | undefined, name: string) => Promise<Author>;
  events: PullRequestEvents;
}) {
  const { repo, events } = deps;

  async function find(
    sessionId: string,
    id: string,
    notFound: (id: string) => string,
  ): Promise<StoredPullRequest> {
    const stored = await repo.find(sessionId, id.trim());
    if (!stored) throw new DomainError("not_found", notFound(id.trim()));
    return stored;
  }

  /**
   * Opens the approved PR on GitHub and posts the review's `comment` on it; what went wrong
   * is said, never thrown (the PR stays approved, and opened when only the comment failed).
   */
  async function publish(
    stored: StoredPullRequest,
    github: GithubTarget,
    comment: string | null,
  ): Promise<
    { pr: PullRequest; url: string; commentError?: string } | { error: string; compareUrl?: string }
  > {
    const { pr } = stored;
    try {
      const opened = await deps.vcs.repository.publish(pr.sessionId, github, {
        head: stored.headSha,
        branch: pr.sourceBranch,
        base: pr.targetBranch,
        baseSha: stored.baseSha,
        title: pr.title,
        body: pr.description,
      });
      if ("error" in opened) return opened;
      const saved = await repo.setGithub(pr.sessionId, pr.id, opened);
      if (!saved) return { error: PR_MESSAGES.reviewNotFound(pr.id) };
      events.sync(pr.sessionId, { type: "pr-updated", sessionId: pr.sessionId, pr: saved.pr });
      if (!comment) return { pr: saved.pr, url: opened.url };
      const commentError = await deps.github.commentOnPull(github, opened.number, comment).then(
        () => undefined,
        (error: unknown) => {
          if (error instanceof DomainError) return error.message;
          throw error;
        },
      );
      return { pr: saved.pr, url: opened.url, ...(commentError ? { commentError } : {}) };
    } catch (error) {
      if (error instanceof DomainError) return { error: error.message };
      throw error;
    }
  }

  /** Moves an approved PR whose merge is done to merged, and tells the session. */
  async function markMerged(approved: StoredPullRequest): Promise<StoredPullRequest> {
    const merged = await repo.markMerged(approved.pr.sessionId, approved.pr.id);
    if (!merged) return approved;
    events.sync(merged.pr.sessionId, { type: "pr-updated", sessionId: merged.pr.sessionId, pr: merged.pr });
    return merged;
  }

  return {
    /** Every pull request the account opened, in any session (their data export). */
    byAuthor: (authorId: string) => repo.byAuthor(authorId),

    /** A deleted account's pull requests and reviews show "Deleted user" (in `tx`). */
    forgetAuthor: (tx: Queryable, authorId: string, name: string) => repo.forgetAuthor(tx, authorId, name),

    async create(
      sessionId: string,
      who: Requester,
      input: {
        title: string;
        description?: string | undefined;
        targetBranch?: string | undefined;
        /** The PR's branch (it must not exist); named from the title and the time when absent. */
        sourceBranch?: string | undefined;
      },
    ): Promise<CreatePrAck> {
      const title = input.title.trim();
      if (!title) throw new DomainError("invalid_payload", PR_MESSAGES.titleRequired);
      const target = input.targetBranch?.trim() || "main";
      if (!TARGET_BRANCH.test(target))
        throw new DomainError("invalid_payload", `'${target}' is not a valid branch name.`);
      if (await repo.titleTaken(sessionId, title))
        throw new DomainError("conflict", PR_MESSAGES.duplicateTitle(title));
      if ((await repo.count(sessionId)) >= PR_LIMITS.perSession)
        throw new DomainError("conflict", `A session holds at most ${PR_LIMITS.perSession} pull requests.`);

      const now = new Date();
      const stamp = `${now.getTime()}${Math.floor(Math.random() * 1000)
        .toString()
        .padStart(3, "0")}`;
      const branch = input.sourceBranch?.trim() || `pr-${titleSlug(title)}-${stamp}`;
      const language = await deps.sessions.language(sessionId);
      const snapshot = await deps.vcs.repository
        .snapshot(sessionId, {
          branch,
          from: target,
          message: `PR: ${title}`,
          author: await deps.authorOf(who.userId, who.name),
        })
        .catch((error: unknown) => {
          // Git refused the snapshot: the request was invalid, or the repository's state conflicts.
          if (error instanceof DomainError && error.code !== "invalid_payload")
            throw new DomainError("conflict", error.message);
          throw error;
        });
      if (!snapshot) throw new DomainError("invalid_payload", PR_MESSAGES.noChanges);
      const description = [
        input.description?.trim() ?? "",
        "",
        `Session: ${sessionId}`,
        `Author: ${who.name}`,
        `Language: ${language}`,
        `Created: ${now.toISOString()}`,
      ]
        .join("\n")
        .trim();
      const pr: PullRequest = {
        id: `pr-${stamp}`,
        sessionId,
        title,
        description,
        author: who.name,
        authorId: who.id,
        sourceBranch: branch,
        targetBranch: target,
        status: "pending",
        language,
        files: snapshot.files,
        createdAt: now.toISOString(),
        reviewedAt: null,
        reviewedBy: null,
        comments: null,
        prNumber: null,
        prUrl: null,
      };
      try {
        await repo.insert(pr, { headSha: snapshot.head, baseSha: snapshot.base });
      } catch (error) {
        // Two people sending the same title at once: the unique index keeps one.
        if (await repo.titleTaken(sessionId, title))
          throw new DomainError("conflict", PR_MESSAGES.duplicateTitle(title));
        throw error;
      }
      events.sync(sessionId, { type: "pr-added", sessionId, pr });
      return { pr, message: who.isHost ? PR_MESSAGES.createdForReview : PR_MESSAGES.waitingForReview };
    },

    /** Approve (merge into the target), reject or request changes: the host only, pending PRs only. */
    async review(
      sessionId: string,
      who: Requester,
      input: {
        prId: string;
        action: string;
        comment?: string | undefined;
        github?: GithubTarget | undefined;
      },
    ): Promise<ReviewAck> {
      if (!who.isHost) throw new DomainError("forbidden", PR_MESSAGES.hostOnlyReview);
      const stored = await find(sessionId, input.prId, PR_MESSAGES.reviewNotFound);
      const action = ReviewActionSchema.safeParse(input.action);
      if (!action.success) throw new DomainError("invalid_payload", PR_MESSAGES.unknownAction(input.action));
      if (stored.pr.status !== "pending") throw new DomainError("conflict", PR_MESSAGES.notPending);
      const status: PrStatus = STATUS_OF[action.data];
      const comment = input.comment?.trim() || null;

      if (action.data === "approve") {
        await deps.vcs.repository
          .merge(sessionId, {
            source: stored.headSha,
            target: stored.pr.targetBranch,
            message: `Merge pull request ${stored.pr.id}: ${stored.pr.title}`,
            author: await deps.authorOf(who.userId, who.name),
          })
          .catch((error: unknown) => {
            // A merge that did not conflict failed because its branches are gone.
            if (error instanceof DomainError && error.code !== "conflict")
              throw new DomainError("not_found", error.message);
            throw error;
          });
      }
      const updated = await repo.review(sessionId, stored.pr.id, {
        status,
        reviewedBy: who.name,
        comments: comment,
        authorNotified: false,
      });
      if (!updated) throw new DomainError("conflict", PR_MESSAGES.notPending);
      const outcome = status as keyof typeof SYNC_OF;
      events.sync(sessionId, { type: SYNC_OF[outcome], sessionId, pr: updated.pr });
      // The spec's state machine: approve makes it approved; the merge, done above, makes it merged.
      const reviewed = outcome === "approved" ? await markMerged(updated) : updated;
      let { pr } = reviewed;
      const published =
        outcome === "approved" && input.github ? await publish(reviewed, input.github, comment) : undefined;
      if (published && "url" in published) pr = published.pr;
      const told = reviewText(pr);
      await events.announce(sessionId, [{ type: "output", content: told }]);
      if (await events.reviewed(sessionId, pr.authorId, { sessionId, pr, message: told }))
        await repo.markNotified(sessionId, [pr.id]);
      if (published && "url" in published) {
        const { commentError } = published;
        return {
          pr,
          message: commentError ? PR_MESSAGES.commentNotPosted(commentError) : PR_MESSAGES.createdOnGithub,
        };
      }
      if (published) {
        return {
          pr,
          message: `${PR_MESSAGES.githubFailed}: ${published.error}`,
          ...(published.compareUrl ? { compareUrl: published.compareUrl } : {}),
        };
      }
      const message =
        outcome === "approved"
          ? `Approved: merged into ${pr.targetBranch}.`
          : `Pull request ${OUTCOME_WORDS[outcome]}.`;
      return { pr, message };
    },

    /** Every PR of the session, and the reviews `who` authored and has not been told of yet. */
    async syncFor(sessionId: string, who: Requester): Promise<{ prs: PullRequest[]; unseen: PrReviewed[] }> {
      const stored = await repo.list(sessionId);
      const unseen = stored.filter(
        (s) => s.pr.authorId === who.id && s.pr.status !== "pending" && !s.authorNotified,
      );
      await repo.markNotified(
        sessionId,
        unseen.map((s) => s.pr.id),
      );
      return {
        prs: stored.map((s) => s.pr),
        unseen: unseen.map(({ pr }) => ({ sessionId, pr, message: reviewText(pr) })),
      };
    },

    list: async (sessionId: string): Promise<PullRequest[]> => (await repo.list(sessionId)).map((s) => s.pr),

    get: async (sessionId: string, id: string): Promise<PullRequest> =>
      (await find(sessionId, id, PR_MESSAGES.notFound)).pr,

    /** The PR's changed files with both texts: `git diff` from the target's head it was made from. */
    async diff(sessionId: string, id: string): Promise<PrDiff> {
      const stored = await find(sessionId, id, PR_MESSAGES.notFound);
      const files = await deps.vcs.repository.compare(sessionId, stored.baseSha, stored.headSha);
      return { prId: stored.pr.id, files };
    },
  };
}

export type PullRequestService = ReturnType<typeof createPullRequestService>;
