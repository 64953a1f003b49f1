-- A set's tabs hold the positions base, base + 1, ... base + count - 1: the tab at
-- index i has position base + i. With a movable base, an edit shifts the tabs on
-- whichever side of it has fewer, so editing either end of a large set moves no
-- other tab. Existing sets start at position 0.
ALTER TABLE tab_set ADD COLUMN base INTEGER NOT NULL DEFAULT 0;
