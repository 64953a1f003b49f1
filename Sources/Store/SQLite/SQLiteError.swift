import TabStoreSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed SQLite call: extended result code, `sqlite3_errmsg` text, the SQL, and the
/// operating system's `errno` of a failed file operation (0 when none).
///
/// Internal: the store maps it to a `TabStoreError` that speaks of tabs and files.
struct SQLiteError: Error, CustomStringConvertible {
    let code: Int32
    let message: String
    let sql: String?
    let systemErrno: Int32

    init(code: Int32, message: String, sql: String? = nil, systemErrno: Int32 = 0) {
        self.code = code
        self.message = message
        self.sql = sql
        self.systemErrno = systemErrno
    }

    init(database: OpaquePointer?, code: Int32, sql: String? = nil) {
        let message = database.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        self.init(code: code, message: message, sql: sql, systemErrno: database.map { sqlite3_system_errno($0) } ?? 0)
    }

    /// The primary result code (`SQLITE_BUSY` for `SQLITE_BUSY_SNAPSHOT`, ...).
    var primaryCode: Int32 { code & 0xFF }

    var description: String {
        "SQLite error \(code): \(message)" + (sql.map { " - while executing `\($0)`" } ?? "")
    }

    /// Whether opening a file failed for want of a file descriptor (SQLite says only
    /// "unable to open"). Only for opening and I/O codes: the errno outlives its failure.
    var ranOutOfDescriptors: Bool {
        (primaryCode == SQLITE_CANTOPEN || primaryCode == SQLITE_IOERR) && (systemErrno == EMFILE || systemErrno == ENFILE)
    }

    /// The same failure told in terms of the database file at `path`.
    func storeError(path: String) -> TabStoreError {
        if ranOutOfDescriptors {
            let holder = systemErrno == EMFILE ? "this process has" : "the system has"
            return TabStoreError(.cannotOpen(path: path, reason: "no file descriptor is free (\(holder) too many files open)"))
        }
        switch primaryCode {
        case SQLITE_BUSY, SQLITE_LOCKED: return TabStoreError(.busy(path: path))
        case SQLITE_FULL: return TabStoreError(.diskFull(path: path))
        // SQLite reports a full disk as SQLITE_FULL only for the database and its journal;
        // sizing the shared-memory (-shm) file on a full disk is an I/O error with ENOSPC.
        case SQLITE_IOERR where systemErrno == ENOSPC: return TabStoreError(.diskFull(path: path))
        case SQLITE_READONLY: return readOnlyReason(path)
        case SQLITE_NOTADB: return TabStoreError(.notADatabase(path: path))
        case SQLITE_CORRUPT: return TabStoreError(.corrupt(path: path))
        case SQLITE_CANTOPEN: return TabStoreError(.cannotOpen(path: path, reason: message))
        default: return TabStoreError(.sqlite(path: path, code: code, message: message, sql: sql))
        }
    }
}

/// Why a file SQLite opened (or found) read-only takes no writes: the file itself, or (the file being
/// writable) a `-wal` or `-shm` file another user's read left behind.
func readOnlyReason(_ path: String) -> TabStoreError {
    let sideFiles: [String] = [path + "-wal", path + "-shm"].filter { (file: String) in access(file, F_OK) == 0 }
    guard access(path, W_OK) == 0, sideFiles.contains(where: { (file: String) in access(file, W_OK) != 0 }) else { return TabStoreError(.readOnly(path: path)) }
    return TabStoreError(.sideFilesNotWritable(path: path, walIsEmpty: (fileSize(path + "-wal") ?? 0) == 0))
}
