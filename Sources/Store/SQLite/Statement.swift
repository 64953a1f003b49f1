import TabStoreSQLite

/// A value bound to a statement parameter.
enum SQLValue: Equatable {
    case int(Int)
    case text(String)
    /// A tab id, bound as its canonical text.
    case tabID(TabID)
    case null

    init(_ value: Int?) { self = value.map(SQLValue.int) ?? .null }
    init(_ value: String?) { self = value.map(SQLValue.text) ?? .null }
}

/// SQLite copies the bytes of a value bound with this destructor before the bind returns.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

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

    /// Binds `values` to parameters 1, 2, ...; parameters not given are NULL.
    /// The statement must not be running (every run resets it as it ends).
    func bind(_ values: [SQLValue]) {
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case let .int(number): sqlite3_bind_int64(handle, index, Int64(number))
            case let .text(text): bind(text, at: index)
            case let .tabID(id): bind(id.uuidString, at: index)
            case .null: sqlite3_bind_null(handle, index)
            }
        }
    }

    private func bind(_ text: String, at index: Int32) {
        var text = text
        _ = text.withUTF8 { bytes in
            // A null pointer would bind NULL, not the empty text.
            guard let start = bytes.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, transient) }
            return start.withMemoryRebound(to: CChar.self, capacity: bytes.count) { start in
                sqlite3_bind_text(handle, index, start, Int32(bytes.count), transient)
            }
        }
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
            reset()
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
        isNull(column) ? nil : int(column)
    }

    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// A tab id column, read in place; a row without one (edited by hand) reads as `TabID.unknown`.
    func tabID(_ column: Int32) -> TabID {
        guard let text = sqlite3_column_text(handle, column) else { return .unknown }
        return TabID(utf8: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, column)))) ?? .unknown
    }

    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    func optionalText(_ column: Int32) -> String? {
        isNull(column) ? nil : text(column)
    }
}
