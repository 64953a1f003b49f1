-- As migrations/0011_sync_last_body.sql: the last mutation settled of each device, as
-- the device sent it, so that another file syncing as the same device is found out.
ALTER TABLE sync_client ADD COLUMN last_body text;
