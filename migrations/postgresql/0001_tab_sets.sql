-- tabstore's schema on PostgreSQL, step 1: named tab sets and their ordered tabs.
-- Steps 1..7 have the version numbers and the meaning of migrations/000N_*.sql
-- (SQLite); column names and value encodings are the same, so one decoder reads
-- both. Types: SQLite INTEGER -> bigint (ids: bigint identity, BY DEFAULT as SQLite
-- accepts a given id), flags stay integer 0/1, TEXT -> text. Names and titles are
-- COLLATE "C" so ORDER BY sorts bytes, as SQLite's BINARY does. The database must
-- be UTF8 (checked below); clients must use client_encoding UTF8.
--
-- SCHEMA VERSION. Instead of PRAGMA user_version: the table tabstore_schema, one row,
-- one column `version integer NOT NULL`, created by this step with version 0. After a
-- step's SQL the migrator sets `UPDATE tabstore_schema SET version = N` in the same
-- transaction. No table tabstore_schema = version 0.
--
-- HOW CONCURRENT MIGRATING CLIENTS ARE SERIALIZED (the migrator does exactly this).
-- The lock: pg_advisory_xact_lock(8386092229154796133), "the tabstore migration
-- lock" (0x74616273746f7265, the ASCII bytes of 'tabstore'). Advisory locks are per
-- database, so other databases on the server are not blocked. For each step
-- N = 1, 2, ... in order, the statements below in this order (1 to 4 may go in one
-- pipeline, and 6's SQL, UPDATE and COMMIT in one string: two round trips a step):
--   1. BEGIN ISOLATION LEVEL READ COMMITTED
--        (READ COMMITTED is required: each statement then reads with a fresh snapshot,
--        so the read in 3 sees what a client that held the lock before committed.)
--   2. SELECT pg_advisory_xact_lock(8386092229154796133)
--        (waits while another client migrates; released by COMMIT/ROLLBACK.)
--   3. whether tabstore_schema, and both tab_set and tab, exist in current_schema(),
--        read from pg_catalog.pg_class (not to_regclass: a name lookup uses the
--        connection's catalog cache, which may not yet know a table another client
--        created while this one waited) -> has_version, has_tabstore_tables
--   4. only when has_version: SELECT version FROM tabstore_schema   (else version = 0)
--   5. Whose database it is: with a version table, ours when has_tabstore_tables; without
--        one, ours unless has_tabstore_tables (someone else's tab_set and tab: notATabStore).
--        Other programs' tables may live beside tabstore's, unlike in a SQLite file.
--        version > latest known -> schemaTooNew.
--   6. version >= N: COMMIT, the step is done already (by another client).
--      Else: the step's SQL as one string (simple query protocol, several statements;
--        no BEGIN/COMMIT in any file), then UPDATE tabstore_schema SET version = N,
--        then COMMIT. Any error: ROLLBACK; the step left nothing behind.
-- Unqualified names resolve in the search_path (current_schema()): a client picks
-- another schema through its connection's search_path.
--
-- INVARIANTS the database enforces, all at COMMIT (deferrable, initially deferred),
-- whatever the client (error SQLSTATE, constraint name):
--   tab_position_unique        23505  positions unique per set
--   tab_title_unique           23505  a title once per set
--   tab_positions_contiguous   23514  a set's tabs hold exactly positions 0..count-1
--                                     (base..base+count-1 from step 4)
--   tab_set_selection          23514  selected_tab_id is NULL exactly when the set
--                                     has no tabs, else a tab of that set
--   tab_set_selected_tab_fkey  23503  selected_tab_id names an existing tab
--   tab_set_revision_journaled 23514  (from step 5) the set's revision is that of its
--                                     newest journal row, when it has one
-- The three 23514 checks are one function per set, run by deferred constraint
-- triggers. A 10,000-row shift must not queue 10,000 checks: each trigger's WHEN
-- (evaluated as the row changes) calls tabstore_queue_set_check, which queues a check
-- only for a set not yet in the transaction-local setting tabstore.sets_to_check and
-- adds it there; the check removes it when it runs. So each set is checked once per
-- COMMIT (or SET CONSTRAINTS ... IMMEDIATE), after its last change: a change made while
-- a set is listed comes before that set's pending check. A savepoint rollback undoes
-- the setting together with the checks it queued. The setting is the triggers' own:
-- a client that writes it can skip checks, as one that drops a trigger can.

DO $$
BEGIN
    IF current_setting('server_encoding') <> 'UTF8' THEN
        RAISE EXCEPTION 'tabstore needs a UTF8 database; this one is %', current_setting('server_encoding');
    END IF;
END
$$;

CREATE TABLE tabstore_schema (
    version integer NOT NULL
);
CREATE UNIQUE INDEX tabstore_schema_one_row ON tabstore_schema ((true));
INSERT INTO tabstore_schema (version) VALUES (0);

-- The selection lives on the set, as the id of its selected tab (see the SQLite step).
CREATE TABLE tab_set (
    id              bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    name            text COLLATE "C" NOT NULL CONSTRAINT tab_set_name_unique UNIQUE,
    selected_tab_id bigint,
    revision        bigint NOT NULL DEFAULT 0
);

-- position is 0-based and contiguous within a set. Unlike SQLite, PostgreSQL checks a
-- DEFERRABLE unique constraint at commit, so shifting a range by one in one UPDATE
-- passes; its index also serves what SQLite's tab_by_position did.
CREATE TABLE tab (
    id       bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    set_id   bigint NOT NULL REFERENCES tab_set(id) ON DELETE CASCADE,
    position bigint NOT NULL,
    title    text COLLATE "C" NOT NULL,
    CONSTRAINT tab_title_unique UNIQUE (set_id, title) DEFERRABLE INITIALLY DEFERRED,
    CONSTRAINT tab_position_unique UNIQUE (set_id, position) DEFERRABLE INITIALLY DEFERRED
);

ALTER TABLE tab_set ADD CONSTRAINT tab_set_selected_tab_fkey
    FOREIGN KEY (selected_tab_id) REFERENCES tab(id) DEFERRABLE INITIALLY DEFERRED;
-- Deleting a tab looks up the set selecting it.
CREATE INDEX tab_set_by_selected_tab ON tab_set(selected_tab_id);

-- Queues nothing (false) when the set is already due for a check in this transaction;
-- else notes it and returns true. Built-ins only, no SET clause: it runs per changed row.
CREATE FUNCTION tabstore_queue_set_check(set_id bigint) RETURNS boolean
    LANGUAGE sql VOLATILE
    RETURN CASE
        WHEN set_id IS NULL THEN false
        WHEN strpos(current_setting('tabstore.sets_to_check', true), ',' || set_id || ',') > 0 THEN false
        ELSE set_config('tabstore.sets_to_check',
                        coalesce(nullif(current_setting('tabstore.sets_to_check', true), ''), ',') || set_id || ',',
                        true) IS NOT NULL
    END;

-- Positions 0..count-1 (replaced in step 4, where the base appears).
CREATE FUNCTION tabstore_check_positions(checked tab_set) RETURNS void
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    tab_count bigint;
    first_position bigint;
    last_position bigint;
BEGIN
    SELECT count(*), min(position), max(position) INTO tab_count, first_position, last_position
        FROM tab WHERE set_id = checked.id;
    IF tab_count > 0 AND (first_position <> 0 OR last_position <> tab_count - 1) THEN
        RAISE EXCEPTION 'tab set "%" violates constraint "tab_positions_contiguous"', checked.name
            USING ERRCODE = 'check_violation', CONSTRAINT = 'tab_positions_contiguous', TABLE = 'tab',
                  DETAIL = format('Its %s tabs hold positions %s to %s; they must hold 0 to %s.',
                                  tab_count, first_position, last_position, tab_count - 1);
    END IF;
END
$$;

CREATE FUNCTION tabstore_check_selection(checked tab_set) RETURNS void
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    problem text;
BEGIN
    IF checked.selected_tab_id IS NULL THEN
        IF EXISTS (SELECT 1 FROM tab WHERE set_id = checked.id) THEN
            problem := 'It has tabs but no selected tab.';
        END IF;
    ELSIF NOT EXISTS (SELECT 1 FROM tab WHERE id = checked.selected_tab_id AND set_id = checked.id) THEN
        problem := format('Its selected_tab_id %s is not a tab of this set.', checked.selected_tab_id);
    END IF;
    IF problem IS NOT NULL THEN
        RAISE EXCEPTION 'tab set "%" violates constraint "tab_set_selection"', checked.name
            USING ERRCODE = 'check_violation', CONSTRAINT = 'tab_set_selection', TABLE = 'tab_set', DETAIL = problem;
    END IF;
END
$$;

-- Every check of one set (replaced in step 5, which adds the revision check).
CREATE FUNCTION tabstore_check_set(set_id bigint) RETURNS void
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    checked tab_set;
BEGIN
    -- Due no more: a later change in this transaction queues a new check.
    PERFORM set_config('tabstore.sets_to_check',
                       replace(coalesce(current_setting('tabstore.sets_to_check', true), ''), ',' || set_id || ',', ','),
                       true);
    SELECT * INTO checked FROM tab_set WHERE id = set_id;
    IF NOT FOUND THEN
        RETURN; -- removed: its tabs went with it
    END IF;
    PERFORM tabstore_check_positions(checked);
    PERFORM tabstore_check_selection(checked);
END
$$;

-- For rows of tab (and from step 5 of change): the sets of the old and new row.
CREATE FUNCTION tabstore_check_row_sets() RETURNS trigger
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        PERFORM tabstore_check_set(OLD.set_id);
    END IF;
    IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.set_id IS DISTINCT FROM OLD.set_id) THEN
        PERFORM tabstore_check_set(NEW.set_id);
    END IF;
    RETURN NULL;
END
$$;

CREATE FUNCTION tabstore_check_set_row() RETURNS trigger
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    PERFORM tabstore_check_set(NEW.id);
    RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER tab_inserted_check_set AFTER INSERT ON tab
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN (tabstore_queue_set_check(NEW.set_id))
    EXECUTE FUNCTION tabstore_check_row_sets();
CREATE CONSTRAINT TRIGGER tab_deleted_check_set AFTER DELETE ON tab
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN (tabstore_queue_set_check(OLD.set_id))
    EXECUTE FUNCTION tabstore_check_row_sets();
-- Both calls must run (no short-circuit): a tab moved to another set changes two sets.
CREATE CONSTRAINT TRIGGER tab_updated_check_set AFTER UPDATE OF id, set_id, position ON tab
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN (tabstore_queue_set_check(OLD.set_id)::int + tabstore_queue_set_check(NEW.set_id)::int > 0)
    EXECUTE FUNCTION tabstore_check_row_sets();
CREATE CONSTRAINT TRIGGER tab_set_written_check_set AFTER INSERT OR UPDATE ON tab_set
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN (tabstore_queue_set_check(NEW.id))
    EXECUTE FUNCTION tabstore_check_set_row();
