-- Interview mode: the host switches completions off for everyone in the session (issue 30).
ALTER TABLE sessions ADD COLUMN completions boolean NOT NULL DEFAULT true;
