-- The revision each set name reached when its set was removed or renamed away. A
-- set that takes the name later goes on above it, so that a revision once seen for
-- a name never names another state of a set with that name (--if-revision).
CREATE TABLE name_revision (
    name     TEXT    PRIMARY KEY,
    revision INTEGER NOT NULL
) WITHOUT ROWID;

-- What the journal still knows of the names used before this step. A set that was
-- re-created under a used name (and so reused its revisions) moves above them.
INSERT INTO name_revision (name, revision) SELECT set_name, max(revision) FROM change GROUP BY set_name;
UPDATE tab_set SET revision = (SELECT revision FROM name_revision WHERE name = tab_set.name)
    WHERE revision < (SELECT revision FROM name_revision WHERE name = tab_set.name);

-- The set a change belongs to while that set exists, so that its history follows it
-- across renames; NULL once the set is removed (its row id may be reused). Rows
-- written before this step are linked when they came after the name's last removal
-- or rename away.
ALTER TABLE change ADD COLUMN set_id INTEGER;
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
