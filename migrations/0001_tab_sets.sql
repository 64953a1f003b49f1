-- Named tab sets and their ordered tabs.
-- The selection lives on the set, as the id of its selected tab: "exactly one
-- selected tab per non-empty set" then needs no invariant across several rows,
-- and moving tabs cannot move the selection.
CREATE TABLE tab_set (
    id              INTEGER PRIMARY KEY,
    name            TEXT    NOT NULL UNIQUE,
    selected_tab_id INTEGER,
    revision        INTEGER NOT NULL DEFAULT 0
);

-- position is 0-based and contiguous within a set (the Store keeps it so);
-- it is not UNIQUE because shifting a range of positions by one would collide
-- with itself row by row.
CREATE TABLE tab (
    id       INTEGER PRIMARY KEY,
    set_id   INTEGER NOT NULL REFERENCES tab_set(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    title    TEXT    NOT NULL,
    UNIQUE (set_id, title)
);

CREATE INDEX tab_by_position ON tab(set_id, position);
