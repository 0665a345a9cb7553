-- Collaborative documents: an append-only log of Yjs updates, compacted into one snapshot.
CREATE TABLE doc_updates (
  id bigserial PRIMARY KEY,
  session_id text NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  data bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX doc_updates_session_idx ON doc_updates (session_id, id);

CREATE TABLE doc_snapshots (
  session_id text PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
  data bytea NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE sessions ADD COLUMN language text NOT NULL DEFAULT 'javascript' CHECK (language IN ('javascript', 'python'));
