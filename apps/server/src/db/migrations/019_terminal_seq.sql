-- A session's terminal entries are numbered by the session, in the order they are stored:
-- sessions.terminal_seq is the last number given, raised in the appending transaction, whose
-- row lock makes a second append of the same session (on any node) wait for the first to
-- commit. Numbers never repeat within a session (a `clear` keeps the counter), and a browser
-- that sees one skipped knows an entry is on its way and reads the history.
ALTER TABLE sessions ADD COLUMN terminal_seq bigint NOT NULL DEFAULT 0;
ALTER TABLE terminal_entries ADD COLUMN seq bigint;
-- Existing entries keep their numbers (the global id), so open browsers see no step back.
UPDATE terminal_entries SET seq = id;
UPDATE sessions SET terminal_seq = last.seq
  FROM (SELECT session_id, max(id) AS seq FROM terminal_entries GROUP BY session_id) AS last
  WHERE sessions.id = last.session_id;
ALTER TABLE terminal_entries ALTER COLUMN seq SET NOT NULL;
DROP INDEX terminal_entries_session_idx;
CREATE UNIQUE INDEX terminal_entries_session_seq ON terminal_entries (session_id, seq);
