import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Queryable } from "../../db/index";

const sha256 = (text: string) => createHash("sha256").update(text).digest("base64url");

/**
 * The one-time codes that end a GitHub login, in PostgreSQL so any node can exchange them.
 * A code is bound to the OAuth state of the browser that started the flow (kept in its
 * HttpOnly cookie): only that browser can exchange it, once, within `ttlSeconds`. Only hashes
 * are stored, so the table's rows sign nobody in.
 */
export function createLoginCodes(db: Queryable, ttlSeconds: number) {
  return {
    async issue(userId: string, state: string): Promise<string> {
      const code = randomBytes(32).toString("base64url");
      // Expired codes go with each new one, so the table holds only live ones.
      await db.query("DELETE FROM oauth_login_codes WHERE expires_at < now()");
      await db.query(
        `INSERT INTO oauth_login_codes (code_hash, state_hash, user_id, expires_at)
         VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
        [sha256(code), sha256(state), userId, ttlSeconds],
      );
      return code;
    },

    /**
     * The user of a live code whose state is `state`; the code is gone after any attempt, so a
     * replay, or a try from another browser, leaves nothing to use.
     */
    async redeem(code: string, state: string | undefined): Promise<string | undefined> {
      const rows = await db.query<{ user_id: string; state_hash: string; is_live: boolean }>(
        `DELETE FROM oauth_login_codes WHERE code_hash = $1
         RETURNING user_id, state_hash, expires_at > now() AS is_live`,
        [sha256(code)],
      );
      const row = rows[0];
      if (!row?.is_live || state === undefined) return undefined;
      const [expected, actual] = [Buffer.from(row.state_hash), Buffer.from(sha256(state))];
      return expected.length === actual.length && timingSafeEqual(expected, actual) ? row.user_id : undefined;
    },
  };
}

export type LoginCodes = ReturnType<typeof createLoginCodes>;
