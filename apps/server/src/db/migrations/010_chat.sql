-- Session chat (issue 15): every message kept, oldest first by id; the author is stamped by the
-- server (participant id and the name they had when sending).
CREATE TABLE chat_messages (
  id bigserial PRIMARY KEY,
  session_id text NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  author_id text NOT NULL,
  author_name text NOT NULL,
  text text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX chat_messages_session_idx ON chat_messages (session_id, id);
