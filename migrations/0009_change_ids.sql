-- Each write's journal rows can carry the id its client made for it: a client whose
-- connection broke after its COMMIT went out asks the server whether that id is there
-- (migrations/postgresql/0009). A file needs no such question: the column stays NULL here,
-- and is added so that both backends keep the same versions and columns.
ALTER TABLE change ADD COLUMN change_id TEXT;
