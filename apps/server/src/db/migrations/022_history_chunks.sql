-- Replay (issue 31). A row per keystroke cost 265 bytes of doc_history (the update itself 22):
-- the session id, author, time, row header and two index entries. A periodic job (replay's
-- jobs.ts) folds the rows of doc_history, once settled, into chunks of consecutive updates,
-- each update kept with its own id, time and author (so a seek is still exact to the
-- update), gzip-compressed together, plus the chunk's updates merged into one (what a seek
-- applies to pass through a whole chunk). doc_history keeps only the recent tail.
CREATE TABLE doc_history_chunks (
  session_id text NOT NULL,
  -- The first and last history id of the chunk: ids still order every update of a session.
  first_id bigint NOT NULL,
  upto bigint NOT NULL,
  start_at timestamptz NOT NULL,
  end_at timestamptz NOT NULL,
  edits integer NOT NULL,
  -- Each Yjs client id first seen in the chunk, and the participant whose client it was.
  clients jsonb NOT NULL,
  -- The packed updates (chunks.ts), gzip-compressed; and all of them as one merged update.
  data bytea NOT NULL,
  merged bytea NOT NULL,
  -- Two nodes folding the same rows start at the same first id: the second insert does nothing.
  PRIMARY KEY (session_id, first_id)
);

-- A deleted session's chunks go with the rest of its history (migrations 014 and 015).
CREATE OR REPLACE FUNCTION forget_session_history() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$ BEGIN DELETE FROM doc_updates WHERE session_id = OLD.id; DELETE FROM doc_history WHERE session_id = OLD.id; DELETE FROM doc_history_chunks WHERE session_id = OLD.id; RETURN NULL; END $$;

-- The session's language through time, so a moment's language can be shown and restored:
-- each switch, with the language it replaced (a session with no switch recorded has had its
-- current language throughout).
CREATE TABLE session_language_changes (
  session_id text NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT clock_timestamp(),
  language text NOT NULL,
  previous text NOT NULL
);

CREATE INDEX session_language_changes_session_idx ON session_language_changes (session_id, at);

-- A terminal `clear` hides the entries before it from the live terminal but keeps them, with
-- the moment of the clear, for the replay's timeline (the terminal's bounds still drop the
-- oldest entries).
ALTER TABLE terminal_entries ADD COLUMN cleared_at timestamptz;
