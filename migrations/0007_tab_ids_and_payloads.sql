-- Every tab gets a stable id and may carry the app's data.
--   uuid     a random (version 4) UUID in canonical lowercase text, 8-4-4-4-12: the
--            tab's identity through moves, renames, removal and reopening, export and
--            import. TEXT rather than a 16-byte BLOB: the same value the library, the
--            CLI's --id and the JSON show, comparable in the sqlite3 shell, no
--            conversion on any path; 20 bytes more a row is nothing at tab-bar sizes.
--   payload  the app's key/value data, NULL for none; each key then value as
--            <UTF-8 byte count>:<bytes>, pairs sorted by key (see TabPayload.swift).
-- Removed tabs keep both, so that reopen brings the same tab back.
ALTER TABLE tab ADD COLUMN uuid TEXT;
ALTER TABLE tab ADD COLUMN payload TEXT;
ALTER TABLE closed_tab ADD COLUMN uuid TEXT;
ALTER TABLE closed_tab ADD COLUMN payload TEXT;

-- Fresh ids for the tabs already there: 122 random bits from SQLite's randomness,
-- the version nibble 4 and the variant bits 10.
UPDATE tab SET uuid = lower(
    hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-'
    || substr('89ab', 1 + abs(random() % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)));
UPDATE closed_tab SET uuid = lower(
    hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-'
    || substr('89ab', 1 + abs(random() % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)));

-- One tab per id in the whole database; also the lookup for TabRef.id.
CREATE UNIQUE INDEX tab_by_uuid ON tab(uuid);

-- The journal names the tabs of an event that carries tabs (removed, selected,
-- reselected, reopened, payload-changed): their ids, in the event's order, joined by
-- ','; an empty part for a tab without one. NULL in rows from before this step.
ALTER TABLE change ADD COLUMN tab_ids TEXT;
