-- Accounts and coding sessions.
CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  email text NOT NULL,
  password_hash text,
  github_id bigint UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Login accepts an email or a username, so both are unique regardless of case.
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

CREATE UNIQUE INDEX users_name_key ON users (lower(name));

CREATE TABLE sessions (
  id text PRIMARY KEY,
  title text NOT NULL,
  host_id uuid REFERENCES users (id) ON DELETE SET NULL,
  is_public boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE session_participants (
  session_id text NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('host', 'participant')),
  joined_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (session_id, user_id)
);

CREATE INDEX session_participants_user_idx ON session_participants (user_id);

-- The spec's public playground.
INSERT INTO sessions (id, title, is_public) VALUES ('demo-session', 'Demo Session', true);
