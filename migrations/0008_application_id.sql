-- Marks the file as tabstore's in its SQLite header (PRAGMA application_id, 'tabs' in
-- ASCII), in the same transaction as the version bump. Before anything is written to a
-- file, tabstore recognises it as its own: by this mark, or, for files made before this
-- step (versions 1-7, unmarked), by the exact schema of their version. Another
-- program's file, even with tables named tab_set and tab, is left untouched.
PRAGMA application_id = 1952539251;
