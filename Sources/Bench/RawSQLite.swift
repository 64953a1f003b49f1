import TabStoreSQLite
import TabStoreKit

/// A failed SQLite call in the baseline: the bench stops that group and says why.
struct RawSQLiteError: Error, CustomStringConvertible {
    let code: Int32
    let message: String
    var description: String { "SQLite error \(code): \(message)" }
}

/// A bare SQLite connection set up exactly as `TabStore` sets up its own (same open
/// flags, WAL, `synchronous`, foreign keys, busy timeout, the same migration SQL), so
/// that a Store figure divided by a raw one shows only what the Swift layer costs.
final class RawConnection {
    let handle: OpaquePointer

    init(path: String, synchronous: String) throws {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            sqlite3_close_v2(handle)
            throw RawSQLiteError(code: code, message: "cannot open \(path)")
        }
        self.handle = handle
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, 5000)
        try execute("PRAGMA journal_mode = WAL")
        try execute("PRAGMA foreign_keys = ON; PRAGMA synchronous = \(synchronous)")
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Applies `Migration.all` the way Store's migrator does: every step with its version
    /// bump, all in one IMMEDIATE transaction.
    func migrate() throws {
        try execute("BEGIN IMMEDIATE")
        for migration in Migration.all {
            try execute(migration.sql)
            try execute("PRAGMA user_version = \(migration.version)")
        }
        try execute("COMMIT")
    }

    /// Runs a script, unprepared: set-up only, never inside a timed loop.
    func execute(_ sql: String) throws {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code) }
    }

    func prepare(_ sql: String) throws -> RawStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code) }
        return RawStatement(handle: statement, connection: self)
    }

    var lastInsertedID: Int64 { sqlite3_last_insert_rowid(handle) }

    func error(_ code: Int32) -> RawSQLiteError {
        RawSQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)))
    }
}

/// A prepared statement, kept for the whole loop as a careful C programmer would.
final class RawStatement {
    let handle: OpaquePointer
    private let connection: RawConnection

    init(handle: OpaquePointer, connection: RawConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Steps once: `true` for a row, `false` when done.
    @discardableResult
    func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code:
            sqlite3_reset(handle)
            throw connection.error(code)
        }
    }

    /// Steps to the end and resets, for statements that return no rows.
    func run() throws {
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    func bind(_ index: Int32, _ value: Int64) {
        sqlite3_bind_int64(handle, index, value)
    }

    /// Binds text the caller keeps alive until the statement is reset (`SQLITE_STATIC`):
    /// no copy, the cheapest way C can do it.
    func bind(_ index: Int32, _ text: UnsafeBufferPointer<UInt8>) {
        sqlite3_bind_text(handle, index, UnsafeRawPointer(text.baseAddress)?.assumingMemoryBound(to: CChar.self), Int32(text.count), nil)
    }

    /// Unbinds every parameter (each is NULL until bound again).
    func clearBindings() { sqlite3_clear_bindings(handle) }

    func int(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    func reset() { sqlite3_reset(handle) }
}

/// Bytes that stay put for the life of the process: text bound with `SQLITE_STATIC`.
final class PinnedText {
    let buffer: UnsafeMutableBufferPointer<UInt8>

    init(_ text: String) {
        let bytes = Array(text.utf8)
        buffer = .allocate(capacity: max(bytes.count, 1))
        _ = buffer.initialize(from: bytes)
        count = bytes.count
    }

    private let count: Int

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: buffer[0..<count]) }

    deinit {
        buffer.deallocate()
    }
}
