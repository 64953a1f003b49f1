-- Writers of different sets no longer wait for each other: a write locks the names of the
-- sets it reads (a transaction-level advisory lock per name, see the PostgreSQL backend),
-- and nothing common to all writes. So journal ids, taken at INSERT, no longer follow
-- commit order across sets (0003's note): a row with a lower id may commit later.
--
-- Each row now records the transaction that wrote it. A reader of every set takes rows
-- in (xact_id, id) order, and only those whose transaction is below the horizon
-- pg_snapshot_xmin(pg_current_snapshot()): every transaction below it has ended, so
-- nothing can still appear there and a reader that went up to it misses nothing later.
-- Per set, xact_id order is commit order: a write takes no transaction id before it
-- holds the locks of all its sets (advisory locks need none; its first write takes one),
-- so the next writer of a set gets a later id than the one it waited for.
--
-- Rows written before this step share xact_id 1, below every real one, in id order.
ALTER TABLE change ADD COLUMN xact_id xid8 NOT NULL DEFAULT '1';
ALTER TABLE change ALTER COLUMN xact_id SET DEFAULT pg_current_xact_id();
CREATE INDEX change_by_xact ON change (xact_id, id);
-- A watcher of some sets reads theirs only: by name, then by set id across renames.
CREATE INDEX change_by_name ON change (set_name, xact_id);
