-- A server keeps the last mutation it settled of each device as the device sent it (its
-- stored form): a mutation pushed again under that number is the same one sent again, or
-- another file's that syncs as the same device (a copy of the device's file, or an older
-- copy put back), which would otherwise be taken as already settled and lost. NULL for a
-- device last settled before this step.
ALTER TABLE sync_client ADD COLUMN last_body TEXT;
