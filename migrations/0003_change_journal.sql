-- Every committed change to a set, in commit order: other connections and
-- processes follow it to observe changes, and people read it back as history.
-- No foreign key: the record of a removed or renamed set outlives it.
CREATE TABLE change (
    id       INTEGER PRIMARY KEY,
    set_name TEXT    NOT NULL,
    revision INTEGER NOT NULL,
    kind     TEXT    NOT NULL,
    detail   TEXT    NOT NULL, -- JSON; its shape depends on kind
    at       INTEGER NOT NULL  -- milliseconds since 1970-01-01 UTC
);
-- No index on set_name: every write pays for an index, while reading a set's
-- history scans at most the journal's bounded length, newest first.
