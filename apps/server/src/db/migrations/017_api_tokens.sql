-- Personal API tokens for Piston clients (the execute API only). The secret is shown once;
-- only its sha256 (hex) is kept, which is enough for a 256-bit random secret.
CREATE TABLE api_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);

CREATE INDEX api_tokens_user_id ON api_tokens (user_id, created_at);
