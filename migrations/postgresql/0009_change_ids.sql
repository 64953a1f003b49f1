-- Each write's journal rows carry the id its client made for it (a random UUID, one per
-- try of a transaction). A client whose connection broke after its COMMIT went out
-- connects again and looks the id up: there, the write was saved; not there (once the old
-- server process has ended), it was not. So a lost COMMIT is never left as "maybe".
ALTER TABLE change ADD COLUMN change_id text;
CREATE INDEX change_by_change_id ON change (change_id) WHERE change_id IS NOT NULL;

-- The rule checks resolve names in the search path they were created with. A database
-- migrated before tabstore pinned one schema in its connections kept "$user", public
-- there, where a schema named after the role could hide the tables. Migrations run in
-- the connection's one schema: this fixes the functions' path to it.
ALTER FUNCTION tabstore_check_positions(tab_set) SET search_path FROM CURRENT;
ALTER FUNCTION tabstore_check_selection(tab_set) SET search_path FROM CURRENT;
ALTER FUNCTION tabstore_check_revision(tab_set) SET search_path FROM CURRENT;
ALTER FUNCTION tabstore_check_set(bigint) SET search_path FROM CURRENT;
ALTER FUNCTION tabstore_check_row_sets() SET search_path FROM CURRENT;
ALTER FUNCTION tabstore_check_set_row() SET search_path FROM CURRENT;
