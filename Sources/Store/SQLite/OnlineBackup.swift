import TabStoreSQLite

/// One run of SQLite's online backup API (`sqlite3_backup_*`): copies every page of a
/// source connection's database into a destination connection's, as one consistent
/// snapshot (a write to the source from another connection restarts the copy).
///
/// Not `Sendable`: used inside the source connection's lock, then finished.
final class OnlineBackup {
    private let backup: OpaquePointer
    private let destination: OpaquePointer
    private var finished = false

    /// - Throws: the destination connection's error (for example an open transaction).
    init(from source: OpaquePointer, to destination: OpaquePointer) throws(SQLiteError) {
        guard let backup = sqlite3_backup_init(destination, "main", source, "main") else {
            throw SQLiteError(database: destination, code: sqlite3_errcode(destination))
        }
        self.backup = backup
        self.destination = destination
    }

    deinit {
        if !finished { sqlite3_backup_finish(backup) }
    }

    /// Copies up to `pages` pages.
    /// - Returns: `true` when the copy is complete, `false` when pages remain or the
    ///   source was briefly locked (call again).
    /// - Throws: the failure, as SQLite reports it on the destination connection.
    func step(pages: Int32) throws(SQLiteError) -> Bool {
        let code = sqlite3_backup_step(backup, pages)
        switch code {
        case SQLITE_DONE: return true
        case SQLITE_OK: return false
        case _ where code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED:
            sqlite3_sleep(5)
            return false
        default:
            finished = true
            sqlite3_backup_finish(backup)
            throw SQLiteError(database: destination, code: code)
        }
    }

    /// Pages still to copy, and the source's page count, as of the last step.
    var remaining: Int { Int(sqlite3_backup_remaining(backup)) }
    var pageCount: Int { Int(sqlite3_backup_pagecount(backup)) }

    /// Releases the backup; throws when the destination did not take the last step.
    func finish() throws(SQLiteError) {
        guard !finished else { return }
        finished = true
        let code = sqlite3_backup_finish(backup)
        guard code == SQLITE_OK else { throw SQLiteError(database: destination, code: code) }
    }
}
