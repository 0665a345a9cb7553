-- Accounts hardening (issue 13): usernames that cannot pass for emails, token versions, and
-- the one-time codes that end a GitHub login.

-- A username with '@' could block the person whose email it spells, so it is renamed: '@'
-- becomes '_', with the smallest '_N' suffix that is free. Names of one group (the same base
-- without case; the oldest's spelling) take the free candidates in order of age; a suffixed candidate never equals
-- another group's base, and `base_N` with an integer N names one (base, N), so no two renamed
-- users meet. The series is long enough: only names starting with the base, the groups' bases
-- and the group's own members can take a candidate. The renamed user signs in by email.
WITH bad AS (
  SELECT id, lower(replace(name, '@', '_')) AS key, replace(name, '@', '_') AS base,
    row_number() OVER (PARTITION BY lower(replace(name, '@', '_')) ORDER BY created_at, id) AS rank
  FROM users
  WHERE strpos(name, '@') > 0
),
groups AS (
  SELECT key, (array_agg(base ORDER BY rank))[1] AS base, count(*) AS size FROM bad GROUP BY key
),
free AS (
  SELECT g.key, c.name, row_number() OVER (PARTITION BY g.key ORDER BY n) AS rank
  FROM groups g
  CROSS JOIN LATERAL generate_series(
    0,
    g.size + (SELECT count(*) FROM groups) + (SELECT count(*) FROM users u WHERE starts_with(lower(u.name), g.key))
  ) AS n
  CROSS JOIN LATERAL (SELECT CASE WHEN n = 0 THEN g.base ELSE g.base || '_' || n END AS name) AS c
  WHERE NOT EXISTS (SELECT 1 FROM users u WHERE lower(u.name) = lower(c.name))
    AND (n = 0 OR NOT EXISTS (SELECT 1 FROM groups o WHERE o.key = lower(c.name)))
)
UPDATE users u SET name = f.name, updated_at = now()
FROM bad b JOIN free f ON f.key = b.key AND f.rank = b.rank
WHERE u.id = b.id;

ALTER TABLE users ADD CONSTRAINT users_name_no_at CHECK (strpos(name, '@') = 0);

-- Tokens carry the version they were signed with; raising it ends every earlier token.
ALTER TABLE users ADD COLUMN token_version integer NOT NULL DEFAULT 0;

-- A GitHub login ends with a one-time code, stored as its SHA-256 with the SHA-256 of the
-- state cookie of the browser that started the flow; only that browser can exchange it, once.
CREATE TABLE oauth_login_codes (
  code_hash text PRIMARY KEY,
  state_hash text NOT NULL,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL
);

CREATE INDEX oauth_login_codes_expiry_idx ON oauth_login_codes (expires_at);
