-- Sync's server side (TabStoreKit.docc, Sync; as migrations/0010_sync.sql): the last
-- mutation of each device applied or refused, in the transaction that applied it, and
-- the refusals, which the device reads back on its next push or pull.
CREATE TABLE sync_client (
    device_id     text COLLATE "C" PRIMARY KEY,
    last_mutation bigint NOT NULL
);
CREATE TABLE sync_refusal (
    device_id text COLLATE "C" NOT NULL,
    mutation  bigint NOT NULL,
    code      text NOT NULL,
    reason    text NOT NULL,
    PRIMARY KEY (device_id, mutation)
);
