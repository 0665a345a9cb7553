-- An ended session is an archive (DESIGN decision 15): read-only until its host reopens it.
ALTER TABLE sessions ADD COLUMN ended_at timestamptz;
