import type { User } from "@ensemble/protocol";
import type { Queryable } from "../../db/index";

interface UserRow {
  id: string;
  name: string;
  email: string;
  password_hash: string | null;
  github_id: string | null;
  token_version: number;
  created_at: Date;
}

/** A stored user, including what must never leave the server. */
export interface UserRecord {
  id: string;
  name: string;
  email: string;
  passwordHash: string | null;
  /** Tokens signed with another version are no longer valid. */
  tokenVersion: number;
  createdAt: Date;
}

const COLUMNS = "id, name, email, password_hash, github_id, token_version, created_at";
/**
 * A deleted account's row stays, anonymised (migration 021), for the foreign keys and authors
 * that name it; no read or change of a user sees it, so none of its tokens finds a user.
 */
const LIVE = "deleted_at IS NULL";

const toRecord = (row: UserRow): UserRecord => ({
  id: row.id,
  name: row.name,
  email: row.email,
  passwordHash: row.password_hash,
  tokenVersion: row.token_version,
  createdAt: row.created_at,
});

/** The public shape of a user, for that user only. */
export const toUser = (r: UserRecord): User => ({
  id: r.id,
  _id: r.id,
  name: r.name,
  email: r.email,
  createdAt: r.createdAt.toISOString(),
});

const first = (rows: UserRow[]) => (rows[0] ? toRecord(rows[0]) : undefined);

/** SQL for users. Email and name compare without case, as their unique indexes do. */
export function createUserRepo(db: Queryable) {
  return {
    async insert(u: { name: string; email: string; passwordHash: string | null; githubId?: number }) {
      const rows = await db.query<UserRow>(
        `INSERT INTO users (name, email, password_hash, github_id) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
        [u.name, u.email, u.passwordHash, u.githubId ?? null],
      );
      const record = first(rows);
      if (!record) throw new Error("INSERT returned no row");
      return record;
    },
    async findById(id: string) {
      if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
      return first(await db.query<UserRow>(`SELECT ${COLUMNS} FROM users WHERE id = $1 AND ${LIVE}`, [id]));
    },
    /** An identifier with '@' is an email (usernames cannot hold one), any other a username. */
    async findByLogin(emailOrName: string) {
      const column = emailOrName.includes("@") ? "email" : "name";
      return first(
        await db.query<UserRow>(
          `SELECT ${COLUMNS} FROM users WHERE lower(${column}) = lower($1) AND ${LIVE}`,
          [emailOrName],
        ),
      );
    },
    async findByGithubId(githubId: number) {
      return first(
        await db.query<UserRow>(`SELECT ${COLUMNS} FROM users WHERE github_id = $1 AND ${LIVE}`, [githubId]),
      );
    },
    async nameOrEmailTaken(name: string | undefined, email: string | undefined, exceptId?: string) {
      const rows = await db.query<{ name_taken: boolean; email_taken: boolean }>(
        `SELECT bool_or(lower(name) = lower($1)) AS name_taken, bool_or(lower(email) = lower($2)) AS email_taken
         FROM users WHERE (lower(name) = lower($1) OR lower(email) = lower($2)) AND id IS DISTINCT FROM $3::uuid`,
        [name ?? null, email ?? null, exceptId ?? null],
      );
      return { nameTaken: rows[0]?.name_taken === true, emailTaken: rows[0]?.email_taken === true };
    },
    /** A new password also raises the token version, ending every token signed before. */
    async update(id: string, changes: { name?: string; email?: string; passwordHash?: string }) {
      const rows = await db.query<UserRow>(
        `UPDATE users SET name = COALESCE($2, name), email = COALESCE($3, email),
           password_hash = COALESCE($4, password_hash),
           token_version = token_version + (CASE WHEN $4::text IS NULL THEN 0 ELSE 1 END), updated_at = now()
         WHERE id = $1 AND ${LIVE} RETURNING ${COLUMNS}`,
        [id, changes.name ?? null, changes.email ?? null, changes.passwordHash ?? null],
      );
      return first(rows);
    },
    /** Ends every token of the user: "sign out everywhere". */
    async raiseTokenVersion(id: string) {
      return first(
        await db.query<UserRow>(
          `UPDATE users SET token_version = token_version + 1, updated_at = now() WHERE id = $1 AND ${LIVE}
           RETURNING ${COLUMNS}`,
          [id],
        ),
      );
    },
    /**
     * Deletes the account in `tx`: the row keeps its id and nothing else (name, email, password
     * and GitHub id become null, freeing them), its token version rises, and its API tokens and
     * pending GitHub codes go. False when there is no such live account.
     */
    async anonymise(tx: Queryable, id: string): Promise<boolean> {
      const rows = await tx.query(
        `UPDATE users SET name = NULL, email = NULL, password_hash = NULL, github_id = NULL,
           deleted_at = now(), token_version = token_version + 1, updated_at = now()
         WHERE id = $1 AND ${LIVE} RETURNING id`,
        [id],
      );
      if (rows.length === 0) return false;
      await tx.query("DELETE FROM api_tokens WHERE user_id = $1", [id]);
      await tx.query("DELETE FROM oauth_login_codes WHERE user_id = $1", [id]);
      return true;
    },
  };
}

export type UserRepo = ReturnType<typeof createUserRepo>;
