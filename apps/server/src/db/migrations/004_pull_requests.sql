-- Pull requests: each one a branch of the session's repository (DESIGN decision 14).
CREATE TABLE pull_requests (
  id text PRIMARY KEY,
  session_id text NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  title text NOT NULL,
  description text NOT NULL,
  author text NOT NULL,
  -- The account id, or guest-… for a guest.
  author_id text NOT NULL,
  source_branch text NOT NULL,
  target_branch text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'approved', 'rejected', 'changes-requested', 'merged')),
  language text NOT NULL,
  files jsonb NOT NULL,
  -- The PR's commit and the target's head it was made from (null: the target had no commit).
  head_sha text NOT NULL,
  base_sha text,
  created_at timestamptz NOT NULL DEFAULT now(),
  reviewed_at timestamptz,
  reviewed_by text,
  comments text,
  -- Whether the author has been told of the review (they may have been away).
  author_notified boolean NOT NULL DEFAULT false,
  pr_number integer,
  pr_url text
);

CREATE INDEX pull_requests_session_idx ON pull_requests (session_id, created_at);
-- One title per session, whatever its case.
CREATE UNIQUE INDEX pull_requests_title_idx ON pull_requests (session_id, lower(title));
