-- The revision each set name reached when its set was removed or renamed away, and
-- the journal's link to a set across renames (as migrations/0005_name_revisions.sql).
CREATE TABLE name_revision (
    name     text COLLATE "C" PRIMARY KEY,
    revision bigint NOT NULL
);

-- What the journal still knows of the names used before this step. A set that was
-- re-created under a used name (and so reused its revisions) moves above them. Its
-- newest linked journal row then has a lower revision, which the revision check added
-- below would refuse: that check applies from the set's next change, so the trigger
-- is off for this one statement.
INSERT INTO name_revision (name, revision) SELECT set_name, max(revision) FROM change GROUP BY set_name;
ALTER TABLE tab_set DISABLE TRIGGER tab_set_written_check_set;
UPDATE tab_set SET revision = name_revision.revision FROM name_revision
    WHERE name_revision.name = tab_set.name AND tab_set.revision < name_revision.revision;
ALTER TABLE tab_set ENABLE TRIGGER tab_set_written_check_set;

-- The set a change belongs to while that set exists; NULL once the set is removed.
-- Rows written before this step are linked when they came after the name's last
-- removal or rename away.
ALTER TABLE change ADD COLUMN set_id bigint;
CREATE INDEX change_by_name_for_migration ON change(set_name, kind, id);
UPDATE change SET set_id = (SELECT id FROM tab_set WHERE name = change.set_name)
    WHERE id > coalesce((
        SELECT max(earlier.id) FROM change AS earlier
        WHERE earlier.set_name = change.set_name AND earlier.kind IN ('set-removed', 'set-renamed')
    ), 0);
DROP INDEX change_by_name_for_migration;

-- A closed tab whose title is back in its set could never be reopened.
DELETE FROM closed_tab WHERE EXISTS
    (SELECT 1 FROM tab WHERE tab.set_id = closed_tab.set_id AND tab.title = closed_tab.title);

-- A set's newest journal row, for the revision check; it also serves a renamed set's
-- history and unlinking a removed set (SQLite scans the bounded journal instead).
CREATE INDEX change_by_set ON change(set_id, id);

-- tab_set_revision_journaled: a set's revision is that of its newest journal row
-- (highest id with change.set_id = the set's id) whenever it has one. Every edit
-- updates the set and journals the change in one transaction, so at COMMIT both agree.
CREATE FUNCTION tabstore_check_revision(checked tab_set) RETURNS void
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    journaled bigint;
BEGIN
    SELECT revision INTO journaled FROM change WHERE set_id = checked.id ORDER BY id DESC LIMIT 1;
    IF FOUND AND journaled IS DISTINCT FROM checked.revision THEN
        RAISE EXCEPTION 'tab set "%" violates constraint "tab_set_revision_journaled"', checked.name
            USING ERRCODE = 'check_violation', CONSTRAINT = 'tab_set_revision_journaled', TABLE = 'tab_set',
                  DETAIL = format('Its revision is %s; its newest journal row has revision %s.', checked.revision, journaled);
    END IF;
END
$$;

CREATE OR REPLACE FUNCTION tabstore_check_set(set_id bigint) RETURNS void
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
        RETURN; -- removed: its tabs went with it, its journal rows are history
    END IF;
    PERFORM tabstore_check_positions(checked);
    PERFORM tabstore_check_selection(checked);
    PERFORM tabstore_check_revision(checked);
END
$$;

-- Journal rows written, relinked or deleted change which row is a set's newest.
CREATE CONSTRAINT TRIGGER change_inserted_check_set AFTER INSERT ON change
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN (tabstore_queue_set_check(NEW.set_id))
    EXECUTE FUNCTION tabstore_check_row_sets();
CREATE CONSTRAINT TRIGGER change_deleted_check_set AFTER DELETE ON change
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN (tabstore_queue_set_check(OLD.set_id))
    EXECUTE FUNCTION tabstore_check_row_sets();
CREATE CONSTRAINT TRIGGER change_updated_check_set AFTER UPDATE OF id, set_id, revision ON change
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN (tabstore_queue_set_check(OLD.set_id)::int + tabstore_queue_set_check(NEW.set_id)::int > 0)
    EXECUTE FUNCTION tabstore_check_row_sets();
