-- doc_history's rows are written only by the statement that logs them in doc_updates (collab's
-- repo.ts `appendMany`), whose foreign key checks the same session: the history's own key
-- checked it a second time for every keystroke (the two keys were 35-45 % of that statement's
-- CPU in PostgreSQL, bench/database). A deleted session's history still goes with it, by this
-- trigger (the function body stays on one line: migrate.ts splits statements at line ends).
ALTER TABLE doc_history DROP CONSTRAINT doc_history_session_id_fkey;

CREATE FUNCTION forget_session_history() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$ BEGIN DELETE FROM doc_history WHERE session_id = OLD.id; RETURN NULL; END $$;

CREATE TRIGGER sessions_forget_history AFTER DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION forget_session_history();
