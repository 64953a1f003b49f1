-- Tabs removed from a set, most recent first, so that a closed tab can be reopened
-- at its old place. The Store keeps at most a bounded number per set.
CREATE TABLE closed_tab (
    id           INTEGER PRIMARY KEY,
    set_id       INTEGER NOT NULL REFERENCES tab_set(id) ON DELETE CASCADE,
    title        TEXT    NOT NULL,
    position     INTEGER NOT NULL,
    was_selected INTEGER NOT NULL
);

CREATE INDEX closed_tab_by_set ON closed_tab(set_id, id);
