#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TabStoreSQLite

/// A value bound to a statement parameter.
enum SQLValue {
    case int(Int)
    case text(String)
    /// A tab id, bound as its canonical text.
    case tabID(TabID)
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
        parameterCount = Int(sqlite3_bind_parameter_count(handle))
        slots = .allocate(capacity: max(parameterCount, 1))
        slots.initialize(repeating: ParameterSlot(), count: max(parameterCount, 1))
    }

    /// Each parameter's slot: what it holds now, and its own copy of the bytes of text,
    /// which SQLite reads in place (`SQLITE_STATIC`) until the parameter is bound again. A
    /// slot is reused while the text fits, so binding text to a statement run again and
    /// again allocates nothing; and a value the parameter holds already is not bound again
    /// (bindings outlast a reset): a journal row binds the same set name, kind and NULLs
    /// every time. (A buffer of slots, not an array: an array in a class is checked for
    /// exclusive access at every use, which cost more than the copy.)
    private let slots: UnsafeMutablePointer<ParameterSlot>
    private let parameterCount: Int

    private struct ParameterSlot {
        var start: UnsafeMutableRawPointer?
        var capacity = 0
        var holds = Held.unknown
    }

    private enum Held: Equatable {
        case unknown
        case null
        case int(Int64)
        /// Text of this many bytes, at the slot's start.
        case text(Int)
    }

    /// The slot of parameter `index` (1-based), when the statement has that parameter.
    private func slot(_ index: Int32) -> UnsafeMutablePointer<ParameterSlot>? {
        let offset = Int(index) - 1
        return offset >= 0 && offset < parameterCount ? slots + offset : nil
    }

    deinit {
        // SQLite lets go of the slots first.
        sqlite3_finalize(handle)
        for slot in 0..<max(parameterCount, 1) { slots[slot].start?.deallocate() }
        slots.deallocate()
    }

    /// Binds `values` to parameters 1, 2, ... after clearing the previous run.
    func bind(_ values: [SQLValue]) {
        prepareToBind()
        for (offset, value) in values.enumerated() { bind(value, at: Int32(offset + 1)) }
    }

    /// Binds one value to parameter `index` (1-based).
    func bind(_ value: SQLValue, at index: Int32) {
        switch value {
        case let .int(number): bind(number, at: index)
        case let .text(text): bind(text, at: index)
        case let .tabID(id): bind(id, at: index)
        case .null: bindNull(at: index)
        }
    }

    /// Ends the previous run, before parameters are bound one by one (`bind(_:at:)`): only
    /// when there was one since the last reset (runs reset as they end), as resetting a
    /// statement that is not running costs a few hundred instructions on every statement
    /// of a write.
    func prepareToBind() {
        if stepped { reset() }
    }

    /// Stepped since the last reset (running, or done but not reset: either refuses bindings).
    /// Unchecked: only the connection's lock holder touches a statement.
    @exclusivity(unchecked) private var stepped = false

    /// Binds one parameter (1-based).
    func bind(_ number: Int, at index: Int32) {
        let slot = slot(index)
        if slot?.pointee.holds == .int(Int64(number)) { return }
        sqlite3_bind_int64(handle, index, Int64(number))
        slot?.pointee.holds = .int(Int64(number))
    }

    func bind(_ text: String, at index: Int32) {
        let bound: Void? = text.utf8.withContiguousStorageIfAvailable { bind(utf8: $0, at: index) }
        if bound == nil {
            var text = text
            text.withUTF8 { bind(utf8: $0, at: index) }
        }
    }

    private func bind(utf8 bytes: UnsafeBufferPointer<UInt8>, at index: Int32) {
        if let slot = slot(index), slot.pointee.holds == .text(bytes.count),
           bytes.isEmpty || memcmp(slot.pointee.start!, bytes.baseAddress!, bytes.count) == 0 {
            return
        }
        bindText(count: bytes.count, at: index) { slot in
            if let source = bytes.baseAddress { slot.copyMemory(from: source, byteCount: bytes.count) }
        }
    }

    /// Binds the id's canonical text, written straight into the parameter's slot.
    func bind(_ id: TabID, at index: Int32) {
        bindText(count: TabID.textLength, at: index) { slot in
            _ = id.writeText(into: slot.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// Binds ids packed as the journal packs them, written straight into the parameter's slot.
    func bind(packedIDs ids: JournalTabIDs, at index: Int32) {
        bindText(count: JournalRow.packedLength(ids), at: index) { slot in
            _ = JournalRow.pack(ids, into: slot.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// Binds `count` bytes of text that `write` puts into the parameter's slot.
    private func bindText(count: Int, at index: Int32, _ write: (UnsafeMutableRawPointer) -> Void) {
        guard let slot = slot(index) else { return }  // SQLite would refuse it too
        let old = slot.pointee
        var new = old
        if old.start == nil || old.capacity < count {
            // Never empty: SQLite takes a null pointer for NULL, not for "".
            new.capacity = max(count, 40)
            new.start = .allocate(byteCount: new.capacity, alignment: 1)
        }
        write(new.start!)
        sqlite3_bind_text(handle, index, new.start!.assumingMemoryBound(to: CChar.self), Int32(count), nil)
        new.holds = .text(count)
        slot.pointee = new
        // Only now does SQLite no longer read the old slot.
        if new.start != old.start { old.start?.deallocate() }
    }

    func bindNull(at index: Int32) {
        let slot = slot(index)
        if slot?.pointee.holds == .null { return }
        sqlite3_bind_null(handle, index)
        slot?.pointee.holds = .null
    }

    /// Advances to the next row: `true` when there is one, `false` when done.
    func step() throws(SQLiteError) -> Bool {
        stepped = true
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
        stepped = false
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

    /// A tab id column, read in place; a row without one (edited by hand) reads as `TabID.unknown`.
    func tabID(_ column: Int32) -> TabID {
        guard let text = sqlite3_column_text(handle, column) else { return .unknown }
        return TabID(utf8: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, column)))) ?? .unknown
    }

    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    func optionalText(_ column: Int32) -> String? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : text(column)
    }
}

