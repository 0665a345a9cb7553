-- Format 2 of doc_snapshots: format 1 plus the snapshot's state vector on its own, so a first
-- client's answer (which needs only the vector) does not read the whole delete set of the
-- summary. Format 1 rows load as older snapshots: built at load, then compacted to format 2.
ALTER TABLE doc_snapshots ADD COLUMN state_vector bytea;
