-- The shared terminal of each session: its last entries (bounded by the server), oldest first by id.
CREATE TABLE terminal_entries (
  id bigserial PRIMARY KEY,
  session_id text NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN ('input', 'output', 'error', 'clear')),
  content text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX terminal_entries_session_idx ON terminal_entries (session_id, id);
