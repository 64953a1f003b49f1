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

    /// Copies up to `pages` pages (all of them when negative).
    /// - Returns: `true` when the copy is complete, `false` when pages remain.
    /// - Throws: the failure, as SQLite reports it on the destination connection. A lock
    ///   is waited for by the source connection's busy handler inside the step, so
    ///   `SQLITE_BUSY` means it was not released within the busy timeout.
    func step(pages: Int32) throws(SQLiteError) -> Bool {
        let code = sqlite3_backup_step(backup, pages)
        switch code {
        case SQLITE_DONE: return true
        case SQLITE_OK: return false
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

extension Database {
    /// Opens the existing file at `path` as a backup's destination. The file is thrown
    /// away on failure and synced as a whole on success: a rollback journal and
    /// per-commit syncs would buy nothing. It is the empty file the backup has just made,
    /// so it needs no defensive settings (which would keep its journal on).
    static func openBackupDestination(path: String) throws(TabStoreError) -> Database {
        let destination = try Database(path: path, flags: SQLITE_OPEN_READWRITE, defensive: false)
        try destination.skipJournalAndSyncs()
        return destination
    }

    /// Copies every page of this database into `destination`, `pagesPerStep` at a time
    /// (all at once when negative), calling `progress(copiedPages, pageCount)` after each
    /// step and once at the end.
    ///
    /// The copy is of one snapshot: a read transaction stays open across the steps.
    /// Without it each step starts a read of its own, and a step that finds the database
    /// changed restarts the copy: under steady writes by other processes, and always for
    /// a reader whose view of the WAL index cannot be trusted (a `-shm` file it may not
    /// write, such as another user's read-only database), the copy never ended.
    /// - Throws: `.reading` for a failure to read this database (locked past the busy
    ///   timeout, damaged), `.writing` for one of the copy, told about `destination`.
    func backUp(
        into destination: Database, pagesPerStep: Int, progress: (Int, Int) -> Void
    ) throws(BackupFailure) {
        var copyFailure: TabStoreError?
        do {
            try readTransaction { () throws(TabStoreError) in
                // The first read takes the snapshot that the steps then copy.
                _ = try schemaState()
                do throws(SQLiteError) {
                    let backup = try OnlineBackup(from: handle, to: destination.handle)
                    while try !backup.step(pages: Int32(clamping: pagesPerStep)) {
                        progress(backup.pageCount - backup.remaining, backup.pageCount)
                    }
                    progress(backup.pageCount, backup.pageCount)
                    try backup.finish()
                } catch {
                    if error.isBackupSourceFailure { throw error.storeError(path: path) }
                    let failure = error.storeError(path: destination.path)
                    copyFailure = failure
                    throw failure
                }
            }
        } catch {
            throw copyFailure.map(BackupFailure.writing) ?? .reading(error)
        }
    }
}

/// Why a backup failed: reading the database, or writing the copy.
enum BackupFailure: Error {
    case reading(TabStoreError)
    case writing(TabStoreError)
}

extension SQLiteError {
    /// Whether a backup failed reading its source: reading can only find it locked or
    /// damaged; every other failure is the copy's.
    var isBackupSourceFailure: Bool {
        switch primaryCode {
        case SQLITE_BUSY, SQLITE_LOCKED, SQLITE_CORRUPT, SQLITE_NOTADB: true
        default: false
        }
    }
}
