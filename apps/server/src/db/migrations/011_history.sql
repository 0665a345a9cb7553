-- Replay (issue 15): every stored document update is kept, with its time and author, in
-- doc_history, written by the same statement that logs it in doc_updates (whose rows compaction
-- deletes). The history row takes the log row's id, so ids order both alike. The key leads with
-- the session, which every read names, so one index serves them (a key of the id alone beside a
-- session index cost 15 bytes a keystroke more: bench/replay).
ALTER TABLE doc_updates ADD COLUMN author text;

CREATE TABLE doc_history (
  session_id text NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  id bigint NOT NULL,
  -- The participant id (a user id or guest-…) whose client sent it; null for the server's own
  -- changes (new files, git, merged pull requests, a restore).
  author text,
  at timestamptz NOT NULL,
  data bytea NOT NULL,
  PRIMARY KEY (session_id, id)
);

-- A seek finds the last row stored before a moment by time.
CREATE INDEX doc_history_session_at_idx ON doc_history (session_id, at, id);

-- The document as of history row `upto` (every row of the session with id <= upto applied), so
-- a seek applies only the rows after the nearest one. `data` is the document as one update,
-- gzip-compressed unless `is_compressed` is false (a third of the size: a long session's
-- checkpoints would otherwise weigh more than its history). `authors` maps each Yjs client id
-- seen so far to its participant id (null: the server).
CREATE TABLE doc_history_checkpoints (
  session_id text NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  upto bigint NOT NULL,
  at timestamptz NOT NULL,
  data bytea NOT NULL,
  is_compressed boolean NOT NULL DEFAULT true,
  authors jsonb NOT NULL,
  PRIMARY KEY (session_id, upto)
);

-- Sessions stored before this migration: their history starts at the snapshot they have, as a
-- checkpoint before their logged updates, which become history rows of no known author (the
-- snapshot may already hold some of those rows: applying one again changes nothing).
INSERT INTO doc_history (id, session_id, author, at, data)
  SELECT id, session_id, NULL, created_at, data FROM doc_updates;

INSERT INTO doc_history_checkpoints (session_id, upto, at, data, is_compressed, authors)
  SELECT s.session_id, coalesce((SELECT min(u.id) - 1 FROM doc_updates u WHERE u.session_id = s.session_id), 0),
    s.updated_at, s.data, false, '{}'::jsonb
  FROM doc_snapshots s;
