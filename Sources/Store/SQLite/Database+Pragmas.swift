import TabStoreSQLite

/// The connection settings and checks tabstore reads and sets through pragmas.
extension Database {
    /// `exclusive` when this connection keeps its lock (and its WAL index) to itself.
    func lockingMode() throws(TabStoreError) -> String? {
        try firstRow("PRAGMA locking_mode", row: { $0.text(0) })
    }

    /// Keeps the lock, and the WAL index in memory (no -shm file), once taken.
    func lockExclusively() throws(TabStoreError) {
        try executeScript("PRAGMA locking_mode = EXCLUSIVE")
    }

    func useWriteAheadLog() throws(TabStoreError) {
        try executeScript("PRAGMA journal_mode = WAL")
    }

    /// Foreign keys on, and a commit synced to disk (`FULL`) or only to the WAL (`NORMAL`).
    func enforceForeignKeys(syncingFully: Bool) throws(TabStoreError) {
        let synchronous = syncingFully ? "FULL" : "NORMAL"
        try executeScript("PRAGMA foreign_keys = ON; PRAGMA synchronous = \(synchronous)")
    }

    /// Leaves the -wal file as it is when this connection closes, instead of moving its
    /// changes into the database file (and the -shm file with it).
    func keepWriteAheadLogOnClose() {
        _ = tabstore_sqlite3_db_config_flag(handle, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1)
    }

    /// For a scratch file thrown away on failure: no rollback journal, no syncs.
    func skipJournalAndSyncs() throws(TabStoreError) {
        try executeScript("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
    }

    /// Changes whenever another connection commits (not for this connection's own commits).
    func dataVersion() throws(TabStoreError) -> Int {
        try firstRow("PRAGMA data_version") { $0.int(0) } ?? 0
    }

    /// Runs `PRAGMA integrity_check`, handing each line of its answer (`ok` for a sound
    /// file) to `line`. Not `quick_check`, which leaves out whether every index holds
    /// exactly its table's rows: a -wal file of another database beside this one shows
    /// one table's pages from there, and only this check finds the rows its indexes miss.
    func integrityCheck(_ line: (String) -> Void) throws(TabStoreError) {
        try forEachRow("PRAGMA integrity_check") { line($0.text(0)) }
    }

    /// Waits without holding anything (between attempts to open).
    static func sleep(milliseconds: Int32) {
        sqlite3_sleep(milliseconds)
    }
}
