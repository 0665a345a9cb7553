-- A snapshot's format says what a load may skip. 0: written before formats (build the document
-- and check its workspace). 1: a compaction of a loaded, initialised workspace, stored with its
-- summary (Y.encodeSnapshot: its state vector and delete set), so a session can serve its
-- first clients, and tell whether their updates bring anything, without building its document.
ALTER TABLE doc_snapshots ADD COLUMN format smallint NOT NULL DEFAULT 0;

ALTER TABLE doc_snapshots ADD COLUMN summary bytea;
