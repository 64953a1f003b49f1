-- Every tab gets a stable id and may carry the app's data (as
-- migrations/0007_tab_ids_and_payloads.sql): uuid is a random (version 4) UUID in
-- canonical lowercase text, payload the packed key/value text of TabPayload.swift,
-- NULL for none. Removed tabs keep both, so that reopen brings the same tab back.
ALTER TABLE tab ADD COLUMN uuid text, ADD COLUMN payload text;
ALTER TABLE closed_tab ADD COLUMN uuid text, ADD COLUMN payload text;

-- Fresh ids for the tabs already there (gen_random_uuid: version 4, lowercase text).
UPDATE tab SET uuid = gen_random_uuid()::text;
UPDATE closed_tab SET uuid = gen_random_uuid()::text;

-- One tab per id in the whole database; also the lookup for TabRef.id.
CREATE UNIQUE INDEX tab_by_uuid ON tab(uuid);

-- The ids of an event's tabs joined by ','; NULL in rows from before this step.
ALTER TABLE change ADD COLUMN tab_ids text;
