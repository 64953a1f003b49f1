import TabStoreSQLite

/// A value bound to a statement parameter.
enum SQLValue {
    case int(Int)
    case text(String)
    case null
}

/// A prepared statement. It owns its handle and finalizes it in `deinit`.
///
/// Not `Sendable`: only the connection that prepared it uses it, under the
/// store's lock.
final class Statement {
    let handle: OpaquePointer
    let sql: String

    init(database: OpaquePointer, sql: String) throws(SQLiteError) {
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(database, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard code == SQLITE_OK, let handle else {
            sqlite3_finalize(handle)
            throw SQLiteError(database: database, code: code, sql: sql)
        }
        self.handle = handle
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Binds `values` to parameters 1, 2, ... after clearing the previous run.
    func bind(_ values: [SQLValue]) {
        sqlite3_reset(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case let .int(number):
                sqlite3_bind_int64(handle, index, Int64(number))
            case let .text(text):
                bind(text, at: index)
            case .null:
                sqlite3_bind_null(handle, index)
            }
        }
    }

    /// Ends the previous run, before parameters are bound one by one (`bind(_:at:)`).
    func prepareToBind() {
        sqlite3_reset(handle)
    }

    /// Binds one parameter (1-based).
    func bind(_ number: Int, at index: Int32) {
        sqlite3_bind_int64(handle, index, Int64(number))
    }

    func bind(_ text: String, at index: Int32) {
        // A native string's bytes are read in place; SQLite copies them (transient).
        let bound: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
            _ = sqlite3_bind_text(handle, index, UnsafeRawPointer(bytes.baseAddress)?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), transientDestructor)
        }
        if bound == nil {
            var text = text
            text.withUTF8 { bytes in
                _ = sqlite3_bind_text(handle, index, bytes.baseAddress, Int32(bytes.count), transientDestructor)
            }
        }
    }

    func bindNull(at index: Int32) {
        sqlite3_bind_null(handle, index)
    }

    /// Advances to the next row: `true` when there is one, `false` when done.
    func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW:
            return true
        case SQLITE_DONE:
            return false
        case let code:
            let error = SQLiteError(database: sqlite3_db_handle(handle), code: code, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Ends the current run so the statement holds no read lock until next used.
    func reset() {
        sqlite3_reset(handle)
    }

    func int(_ column: Int32) -> Int {
        Int(sqlite3_column_int64(handle, column))
    }

    func optionalInt(_ column: Int32) -> Int? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : int(column)
    }

    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    func optionalText(_ column: Int32) -> String? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : text(column)
    }
}

/// SQLite copies the bound bytes at once (`SQLITE_TRANSIENT`, a macro Swift cannot import).
private let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
