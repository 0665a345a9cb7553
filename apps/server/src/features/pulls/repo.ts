import { DELETED_USER_NAME, type PrStatus, type PullRequest } from "@ensemble/protocol";
import type { Db, Queryable } from "../../db/index";

interface PullRequestRow {
  id: string;
  session_id: string;
  title: string;
  description: string;
  author: string;
  author_id: string;
  source_branch: string;
  target_branch: string;
  status: PrStatus;
  language: string;
  files: string[] | string;
  head_sha: string;
  base_sha: string | null;
  created_at: Date;
  reviewed_at: Date | null;
  reviewed_by: string | null;
  comments: string | null;
  author_notified: boolean;
  pr_number: number | null;
  pr_url: string | null;
}

/** A pull request as stored: what everyone sees, and the commits it stands for. */
export interface StoredPullRequest {
  pr: PullRequest;
  headSha: string;
  baseSha: string | null;
  authorNotified: boolean;
}

const COLUMNS = `id, session_id, title, description, author, author_id, source_branch, target_branch,
  status, language, files, head_sha, base_sha, created_at, reviewed_at, reviewed_by, comments,
  author_notified, pr_number, pr_url`;

function toStored(r: PullRequestRow): StoredPullRequest {
  return {
    pr: {
      id: r.id,
      sessionId: r.session_id,
      title: r.title,
      description: r.description,
      author: r.author,
      authorId: r.author_id,
      sourceBranch: r.source_branch,
      targetBranch: r.target_branch,
      status: r.status,
      language: r.language,
      files: typeof r.files === "string" ? (JSON.parse(r.files) as string[]) : r.files,
      createdAt: r.created_at.toISOString(),
      reviewedAt: r.reviewed_at ? r.reviewed_at.toISOString() : null,
      reviewedBy: r.reviewed_by,
      comments: r.comments,
      prNumber: r.pr_number,
      prUrl: r.pr_url,
    },
    headSha: r.head_sha,
    baseSha: r.base_sha,
    authorNotified: r.author_notified,
  };
}

/** SQL of pull requests. */
export function createPullRequestRepo(db: Db) {
  return {
    async insert(pr: PullRequest, commits: { headSha: string; baseSha: string | null }): Promise<void> {
      await db.query(
        `INSERT INTO pull_requests (id, session_id, title, description, author, author_id, source_branch,
           target_branch, status, language, files, head_sha, base_sha, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
        [
          pr.id,
          pr.sessionId,
          pr.title,
          pr.description,
          pr.author,
          pr.authorId,
          pr.sourceBranch,
          pr.targetBranch,
          pr.status,
          pr.language,
          JSON.stringify(pr.files),
          commits.headSha,
          commits.baseSha,
          pr.createdAt,
        ],
      );
    },

    async find(sessionId: string, id: string): Promise<StoredPullRequest | undefined> {
      const rows = await db.query<PullRequestRow>(
        `SELECT ${COLUMNS} FROM pull_requests WHERE session_id = $1 AND id = $2`,
        [sessionId, id],
      );
      return rows[0] ? toStored(rows[0]) : undefined;
    },

    async list(sessionId: string): Promise<StoredPullRequest[]> {
      const rows = await db.query<PullRequestRow>(
        `SELECT ${COLUMNS} FROM pull_requests WHERE session_id = $1 ORDER BY created_at, id`,
        [sessionId],
      );
      return rows.map(toStored);
    },

    async titleTaken(sessionId: string, title: string): Promise<boolean> {
      const rows = await db.query<{ id: string }>(
        "SELECT id FROM pull_requests WHERE session_id = $1 AND lower(title) = lower($2)",
        [sessionId, title],
      );
      return rows.length > 0;
    },

    async count(sessionId: string): Promise<number> {
      const rows = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pull_requests WHERE session_id = $1",
        [sessionId],
      );
      return rows[0]?.n ?? 0;
    },

    /** Records a review, only if the PR is still pending; undefined when it was not. */
    async review(
      sessionId: string,
      id: string,
      review: { status: PrStatus; reviewedBy: string; comments: string | null; authorNotified: boolean },
    ): Promise<StoredPullRequest | undefined> {
      const rows = await db.query<PullRequestRow>(
        `UPDATE pull_requests SET status = $3, reviewed_by = $4, comments = $5, reviewed_at = now(),
           author_notified = $6
         WHERE session_id = $1 AND id = $2 AND status = 'pending' RETURNING ${COLUMNS}`,
        [sessionId, id, review.status, review.reviewedBy, review.comments, review.authorNotified],
      );
      return rows[0] ? toStored(rows[0]) : undefined;
    },

    /** Marks an approved PR merged (its merge into the target is done); undefined when it was not approved. */
    async markMerged(sessionId: string, id: string): Promise<StoredPullRequest | undefined> {
      const rows = await db.query<PullRequestRow>(
        `UPDATE pull_requests SET status = 'merged' WHERE session_id = $1 AND id = $2 AND status = 'approved'
         RETURNING ${COLUMNS}`,
        [sessionId, id],
      );
      return rows[0] ? toStored(rows[0]) : undefined;
    },

    async setGithub(
      sessionId: string,
      id: string,
      pull: { number: number; url: string },
    ): Promise<StoredPullRequest | undefined> {
      const rows = await db.query<PullRequestRow>(
        `UPDATE pull_requests SET pr_number = $3, pr_url = $4 WHERE session_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
        [sessionId, id, pull.number, pull.url],
      );
      return rows[0] ? toStored(rows[0]) : undefined;
    },

    async markNotified(sessionId: string, ids: string[]): Promise<void> {
      if (ids.length === 0) return;
      await db.query(
        "UPDATE pull_requests SET author_notified = true WHERE session_id = $1 AND id = ANY($2)",
        [sessionId, ids],
      );
    },

    /** Every pull request one account opened, in any session, oldest first (their data export). */
    async byAuthor(authorId: string): Promise<PullRequest[]> {
      const rows = await db.query<PullRequestRow>(
        `SELECT ${COLUMNS} FROM pull_requests WHERE author_id = $1 ORDER BY created_at, id`,
        [authorId],
      );
      return rows.map((r) => toStored(r).pr);
    },

    /**
     * A deleted account's name becomes "Deleted user" (in `tx`): as the author of its pull
     * requests, and as the reviewer of those in sessions it took part in (a review stores the
     * reviewer's name, which was theirs: names are unique).
     */
    async forgetAuthor(tx: Queryable, authorId: string, name: string): Promise<void> {
      await tx.query("UPDATE pull_requests SET author = $2 WHERE author_id = $1", [
        authorId,
        DELETED_USER_NAME,
      ]);
      await tx.query(
        `UPDATE pull_requests SET reviewed_by = $3 WHERE lower(reviewed_by) = lower($2)
           AND session_id IN (SELECT session_id FROM session_participants WHERE user_id = $1::uuid)`,
        [authorId, name, DELETED_USER_NAME],
      );
    },
  };
}

export type PullRequestRepo = ReturnType<typeof createPullRequestRepo>;
