-- Cluster mode (DESIGN decision 16): two nodes may write one session's document for a moment.
-- Each update row names the writer that stored it (a random id per server process), so a
-- compaction deletes its own rows by id range but another writer's only once it has read and
-- folded them. Each snapshot write raises `generation`: a writer that finds a generation it did
-- not load or write folds that snapshot in before it writes its own.
ALTER TABLE doc_updates ADD COLUMN writer text;
ALTER TABLE doc_snapshots ADD COLUMN generation bigint NOT NULL DEFAULT 0;
