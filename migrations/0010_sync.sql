-- Sync (TabStoreKit.docc, Sync). Both sides of it live in the same schema, so that any
-- store can be a device, a server, or neither (the tables stay empty).
--
-- A device: its one row says this file syncs; every edit then records its mutation in
-- sync_mutation in the edit's own transaction, until the server has applied or refused it.
-- Mutations are numbered on from the newest pending one, else from last_mutation, the
-- newest the server settled. cookie is where the device's last pull ended in the server's
-- journal; refusals stay in sync_refused for the device's people to read, each told by
-- one sync's report (the first to end after it was heard).
CREATE TABLE sync_device (
    singleton     INTEGER PRIMARY KEY CHECK (singleton = 1),
    device_id     TEXT    NOT NULL,
    server        TEXT    NOT NULL,
    last_mutation INTEGER NOT NULL,
    cookie        INTEGER NOT NULL,
    synced_at     INTEGER              -- milliseconds since 1970-01-01 UTC; NULL: never
);
CREATE TABLE sync_mutation (
    id   INTEGER PRIMARY KEY,
    body TEXT    NOT NULL
);
CREATE TABLE sync_refused (
    id     INTEGER PRIMARY KEY,
    body   TEXT    NOT NULL,
    code   TEXT    NOT NULL,
    reason TEXT    NOT NULL,
    pulled   INTEGER NOT NULL DEFAULT 0, -- 1 once a pull brought its sets back to the server's
    reported INTEGER NOT NULL DEFAULT 0  -- 1 once a sync's report told it
);
-- A server: the last mutation of each device it applied or refused, and the refusals.
CREATE TABLE sync_client (
    device_id     TEXT    PRIMARY KEY,
    last_mutation INTEGER NOT NULL
);
CREATE TABLE sync_refusal (
    device_id TEXT    NOT NULL,
    mutation  INTEGER NOT NULL,
    code      TEXT    NOT NULL,
    reason    TEXT    NOT NULL,
    PRIMARY KEY (device_id, mutation)
);
