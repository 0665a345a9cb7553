import type { ApiToken } from "@ensemble/protocol";
import type { Queryable } from "../../db/index";

interface ApiTokenRow {
  id: string;
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}

const toToken = (row: ApiTokenRow): ApiToken => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at.toISOString(),
  lastUsedAt: row.last_used_at?.toISOString() ?? null,
});

const COLUMNS = "id, name, created_at, last_used_at";
const isUuid = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

/** SQL for personal API tokens; every statement is scoped to the owner. */
export function createApiTokenRepo(db: Queryable) {
  return {
    /** Inserts unless the owner already holds `max` tokens; undefined then. */
    async insert(userId: string, name: string, tokenHash: string, max: number) {
      const rows = await db.query<ApiTokenRow>(
        `INSERT INTO api_tokens (user_id, name, token_hash)
         SELECT $1, $2, $3 WHERE (SELECT count(*) FROM api_tokens WHERE user_id = $1) < $4
         RETURNING ${COLUMNS}`,
        [userId, name, tokenHash, max],
      );
      return rows[0] ? toToken(rows[0]) : undefined;
    },
    async list(userId: string) {
      const rows = await db.query<ApiTokenRow>(
        `SELECT ${COLUMNS} FROM api_tokens WHERE user_id = $1 ORDER BY created_at DESC, id`,
        [userId],
      );
      return rows.map(toToken);
    },
    /** Whether the owner had that token (now gone). */
    async delete(userId: string, id: string) {
      if (!isUuid(id)) return false;
      const rows = await db.query<{ id: string }>(
        "DELETE FROM api_tokens WHERE id = $1 AND user_id = $2 RETURNING id",
        [id, userId],
      );
      return rows.length > 0;
    },
    /** The owner of the token with that hash, marking it used; undefined when there is none. */
    async use(tokenHash: string) {
      const rows = await db.query<{ user_id: string }>(
        "UPDATE api_tokens SET last_used_at = now() WHERE token_hash = $1 RETURNING user_id",
        [tokenHash],
      );
      return rows[0]?.user_id;
    },
  };
}

export type ApiTokenRepo = ReturnType<typeof createApiTokenRepo>;
