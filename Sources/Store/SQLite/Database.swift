import TabStoreSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One SQLite connection with its cache of prepared statements.
///
/// Not `Sendable`: `TabStore` owns it behind a lock. Every SQLite failure leaves
/// here as a `TabStoreError` naming the file.
final class Database {
    let handle: OpaquePointer
    let path: String
    /// Prepared statements by where their SQL text lies in the binary: a few dozen, found
    /// by comparing addresses (cheaper than hashing even an address). Not checked for
    /// exclusive access at run time (each lookup paid for two checks): only the one thread
    /// that holds the connection's lock reaches them.
    @exclusivity(unchecked) private var statements: [(key: SQLKey, statement: Statement)] = []
    /// Where in `statements` a key was last found (plus one; 0: nowhere), in a slot picked
    /// by a few bits of its address: a write's four or five statements are found at once,
    /// not after the dozens a store prepared when it opened. A stale place is only a miss.
    @exclusivity(unchecked) private var lastPlaces = [Int32](repeating: 0, count: 32)
    /// Statements whose SQL is made at run time, at a small key of their own (0, 1, ...):
    /// no SQL text is hashed to find them, and no key either (a journal INSERT is one a write).
    @exclusivity(unchecked) private var keyedStatements: [Statement?] = []
    /// Statements `forget` dropped from the cache, kept until no call uses a statement
    /// unretained (`borrowDepth` back at 0): the failing call itself may still hold one.
    @exclusivity(unchecked) private var retired: [Statement] = []
    @exclusivity(unchecked) private var borrowDepth = 0

    /// Opens the file at `path` (creating it with `SQLITE_OPEN_CREATE`); `:memory:` gives a
    /// private in-memory database.
    /// With `uri` (and `SQLITE_OPEN_URI`), opens that instead but names `path` in errors.
    /// `defensive`: the settings SQLite advises for a file that may come from anyone (see
    /// ``distrustSchema(_:)``); only a file tabstore has just made itself can do without.
    init(path: String, uri: String? = nil, flags: Int32, defensive: Bool = true) throws(TabStoreError) {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(uri ?? path, &handle, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            // SQLite hands back a handle even when opening fails; it must still be closed.
            let error = SQLiteError(database: handle, code: code)
            let systemError = handle.map { sqlite3_system_errno($0) } ?? 0
            sqlite3_close_v2(handle)
            throw Self.openError(error, systemError: systemError, path: path, creating: flags & SQLITE_OPEN_CREATE != 0)
        }
        sqlite3_extended_result_codes(handle, 1)
        if defensive, let refused = Self.distrustSchema(handle) {
            sqlite3_close_v2(handle)
            throw .cannotOpen(path: path, reason: refused)
        }
        self.handle = handle
        self.path = path
    }

    /// SQLite's settings for a database file that may come from anyone, set before the
    /// file is first read: no SQL function with side effects and no virtual table runs
    /// from the schema (a CHECK, a DEFAULT, an index expression: `trusted_schema` off),
    /// ordinary SQL cannot corrupt the file (defensive), and no trigger or view of the
    /// file runs at all. tabstore's schema has neither, and a file that has one is
    /// refused when it is recognised; this holds even before that, and for any
    /// connection opened later.
    /// - Returns: why the settings cannot be made (a SQLite too old to know one), or `nil`.
    private static func distrustSchema(_ handle: OpaquePointer) -> String? {
        let settings: [(option: Int32, on: Int32, name: String)] = [
            (SQLITE_DBCONFIG_DEFENSIVE, 1, "SQLITE_DBCONFIG_DEFENSIVE"),
            (SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, "SQLITE_DBCONFIG_TRUSTED_SCHEMA"),
            (SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, "SQLITE_DBCONFIG_ENABLE_TRIGGER"),
            (SQLITE_DBCONFIG_ENABLE_VIEW, 0, "SQLITE_DBCONFIG_ENABLE_VIEW"),
        ]
        for setting in settings where tabstore_sqlite3_db_config_flag(handle, setting.option, setting.on) != SQLITE_OK {
            return "SQLite \(String(cString: sqlite3_libversion())) does not take \(setting.name), which tabstore needs to open a file safely"
        }
        return nil
    }

    /// Set by `closeNow()`, which a process about to end calls.
    private var isClosed = false
    /// The busy handler's state, kept as long as the connection (see LockWait.swift).
    var lockWait: LockWait?

    deinit {
        closeNow()
    }

    /// Closes the connection; it must not be used again.
    func closeNow() {
        guard !isClosed else { return }
        isClosed = true
        // Statements first: a connection with live statements cannot really close.
        clearStatementCache()
        sqlite3_close_v2(handle)
    }

    var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// How many statements SQLite holds open on this connection: the cached ones, and
    /// any that escaped the cache (a leak). For tests.
    var liveStatementCount: Int {
        var count = 0
        var statement = sqlite3_next_stmt(handle, nil)
        while let current = statement {
            count += 1
            statement = sqlite3_next_stmt(handle, current)
        }
        return count
    }

    var cachedStatementCount: Int { statements.count + keyedStatements.count { $0 != nil } }

    /// Finalizes every cached statement.
    func clearStatementCache() {
        statements.removeAll()
        keyedStatements.removeAll()
        retired.removeAll()
    }

    func setBusyTimeout(milliseconds: Int) {
        sqlite3_busy_timeout(handle, Int32(clamping: milliseconds))
    }

    /// The cached prepared statement for `sql`, prepared on first use.
    func statement(_ sql: StaticString) throws(TabStoreError) -> Statement {
        try unretainedStatement(sql).takeUnretainedValue()
    }

    /// `statement(_:)` not retained, for a call that uses it only while it runs: the cache
    /// keeps it alive that long (`forget` keeps what it drops while such a call runs).
    /// A write looks up four or five statements, and each retain and release is atomic.
    private func unretainedStatement(_ sql: StaticString) throws(TabStoreError) -> Unmanaged<Statement> {
        let key = SQLKey(sql)
        let slot = Int(truncatingIfNeeded: key.address >> 4) & (lastPlaces.count - 1)
        let last = Int(lastPlaces[slot]) - 1
        if last >= 0, last < statements.count, statements[last].key == key { return .passUnretained(statements[last].statement) }
        for place in statements.indices where statements[place].key == key {
            lastPlaces[slot] = Int32(truncatingIfNeeded: place + 1)
            return .passUnretained(statements[place].statement)
        }
        let statement = try prepare(sql.description)
        statements.append((key, statement))
        lastPlaces[slot] = Int32(truncatingIfNeeded: statements.count)
        return .passUnretained(statement)
    }

    /// Runs `body` on the cached statement for `sql`, which it must not keep.
    func withStatement<T>(_ sql: StaticString, _ body: (Statement) throws(TabStoreError) -> T) throws(TabStoreError) -> T {
        try borrow(unretainedStatement(sql), body)
    }

    /// The statement cached under `key` (small, not negative), prepared from `sql()` on first use.
    func statement(key: Int, _ sql: () -> String) throws(TabStoreError) -> Statement {
        try unretainedStatement(key: key, sql).takeUnretainedValue()
    }

    /// Runs `body` on the statement cached under `key`, which it must not keep.
    func withStatement<T>(key: Int, _ sql: () -> String, _ body: (Statement) throws(TabStoreError) -> T) throws(TabStoreError) -> T {
        try borrow(unretainedStatement(key: key, sql), body)
    }

    private func unretainedStatement(key: Int, _ sql: () -> String) throws(TabStoreError) -> Unmanaged<Statement> {
        if key < keyedStatements.count, let cached = keyedStatements[key] { return .passUnretained(cached) }
        let statement = try prepare(sql())
        if key >= keyedStatements.count { keyedStatements += Array(repeating: nil, count: key + 1 - keyedStatements.count) }
        keyedStatements[key] = statement
        return .passUnretained(statement)
    }

    /// A new prepared statement for the cache; a failure names the file.
    private func prepare(_ sql: String) throws(TabStoreError) -> Statement {
        do {
            return try Statement(database: handle, sql: sql)
        } catch {
            throw error.storeError(path: path)
        }
    }

    private func borrow<T>(_ statement: Unmanaged<Statement>, _ body: (Statement) throws(TabStoreError) -> T) throws(TabStoreError) -> T {
        borrowDepth += 1
        defer {
            borrowDepth -= 1
            if borrowDepth == 0, !retired.isEmpty { retired.removeAll() }
        }
        let result = statement._withUnsafeGuaranteedRef { statement in
            Result { () throws(TabStoreError) -> T in try body(statement) }
        }
        return try result.get()
    }

    /// Drops `statement` from the cache: after a failure it is prepared afresh next time,
    /// rather than reused in whatever state the failure left it.
    private func forget(_ statement: Statement) {
        // Kept alive until no call holds a statement unretained: the one that failed may.
        retired.append(statement)
        statements.removeAll { $0.statement === statement }
        if let key = keyedStatements.firstIndex(where: { $0 === statement }) {
            keyedStatements[key] = nil
        }
    }

    /// Runs `sql` (one statement, cached) to completion.
    func execute(_ sql: StaticString, _ values: SQLValue...) throws(TabStoreError) {
        try withStatement(sql) { statement throws(TabStoreError) in try run(statement, values) }
    }

    // `binding:` binds two or three values one by one, with no list: a variadic list is an
    // array on the heap, and a select runs two such statements (its read, its update).

    func execute(_ sql: StaticString, binding first: SQLValue, _ second: SQLValue, _ third: SQLValue) throws(TabStoreError) {
        try withStatement(sql) { statement throws(TabStoreError) in
            statement.prepareToBind()
            statement.bind(first, at: 1)
            statement.bind(second, at: 2)
            statement.bind(third, at: 3)
            try run(statement, bound: true)
        }
    }

    func firstRow<T>(
        _ sql: StaticString, binding first: SQLValue, _ second: SQLValue, row: (Statement) -> T
    ) throws(TabStoreError) -> T? {
        try withStatement(sql) { statement throws(TabStoreError) in
            statement.prepareToBind()
            statement.bind(first, at: 1)
            statement.bind(second, at: 2)
            return try firstRow(statement, bound: true, row: row)
        }
    }

    /// Runs an already fetched statement to completion: for loops that run one
    /// statement many times, without looking it up in the cache each time.
    func run(_ statement: Statement, _ values: [SQLValue]) throws(TabStoreError) {
        statement.bind(values)
        try run(statement, bound: true)
    }

    /// Runs a statement whose parameters are bound already to completion.
    func run(_ statement: Statement, bound: Bool) throws(TabStoreError) {
        defer { statement.reset() }
        do {
            while try statement.step() {}
        } catch {
            forget(statement)
            throw error.storeError(path: path)
        }
    }

    /// Calls `row` for each result row of `sql`.
    func forEachRow(
        _ sql: StaticString, _ values: SQLValue..., row: (Statement) throws(TabStoreError) -> Void
    ) throws(TabStoreError) {
        try withStatement(sql) { statement throws(TabStoreError) in try forEachRow(statement, values, row: row) }
    }

    /// Calls `row` for each result row of an already fetched statement.
    func forEachRow(
        _ statement: Statement, _ values: [SQLValue], row: (Statement) throws(TabStoreError) -> Void
    ) throws(TabStoreError) {
        statement.bind(values)
        defer { statement.reset() }
        while true {
            let hasRow: Bool
            do {
                hasRow = try statement.step()
            } catch {
                forget(statement)
                throw error.storeError(path: path)
            }
            guard hasRow else { return }
            try row(statement)
        }
    }

    /// The first result row of `sql` read by `row`, or `nil` when there is none.
    func firstRow<T>(
        _ sql: StaticString, _ values: SQLValue..., row: (Statement) -> T
    ) throws(TabStoreError) -> T? {
        try withStatement(sql) { statement throws(TabStoreError) in try firstRow(statement, values, row: row) }
    }

    /// The first result row of an already fetched statement, or `nil` when there is none.
    func firstRow<T>(
        _ statement: Statement, _ values: [SQLValue], row: (Statement) -> T
    ) throws(TabStoreError) -> T? {
        statement.bind(values)
        return try firstRow(statement, bound: true, row: row)
    }

    /// The first result row of a statement whose parameters are bound already.
    func firstRow<T>(_ statement: Statement, bound: Bool, row: (Statement) -> T) throws(TabStoreError) -> T? {
        defer { statement.reset() }
        do {
            return try statement.step() ? row(statement) : nil
        } catch {
            forget(statement)
            throw error.storeError(path: path)
        }
    }

    /// Runs a script of several statements, uncached (migrations, set-up pragmas).
    func executeScript(_ sql: String) throws(TabStoreError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            throw SQLiteError(code: code, message: text, sql: sql, systemErrno: sqlite3_system_errno(handle)).storeError(path: path)
        }
    }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction: it takes the write lock up
    /// front, so it waits (busy timeout) instead of failing half-way, and two
    /// processes never both read-then-write the same state.
    /// Any error rolls everything back and is rethrown.
    func writeTransaction<T>(_ body: () throws(TabStoreError) -> T) throws(TabStoreError) -> T {
        try transaction("BEGIN IMMEDIATE", body)
    }

    /// Runs `body` in a read transaction, so that several reads see one snapshot.
    func readTransaction<T>(_ body: () throws(TabStoreError) -> T) throws(TabStoreError) -> T {
        try transaction("BEGIN", body)
    }

    /// Runs `body` in a read transaction unless one is already open (inside a write
    /// transaction, say): its reads see one state of the file either way.
    func inOneSnapshot<T>(_ body: () throws(TabStoreError) -> T) throws(TabStoreError) -> T {
        sqlite3_get_autocommit(handle) != 0 ? try readTransaction(body) : try body()
    }

    private func transaction<T>(
        _ begin: StaticString, _ body: () throws(TabStoreError) -> T
    ) throws(TabStoreError) -> T {
        try execute(begin)
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // COMMIT itself may fail (disk full); SQLite may then have ended the transaction already.
            if sqlite3_get_autocommit(handle) == 0 {
                try? execute("ROLLBACK")
            }
            throw error
        }
    }

    /// SQLite says only "unable to open database file": the error of its own open(2)
    /// (`systemError`), then the file system, say why. Not a second look alone: a file
    /// another process creates in between would turn "not there" into a false "cannot be
    /// opened".
    private static func openError(_ error: SQLiteError, systemError: Int32, path: String, creating: Bool) -> TabStoreError {
        guard error.primaryCode == SQLITE_CANTOPEN, !error.ranOutOfDescriptors else { return error.storeError(path: path) }
        if systemError == ENOENT, !creating { return .databaseNotFound(path: path) }
        var status = stat()
        if stat(path, &status) == 0 {
            if status.st_mode & S_IFMT == S_IFDIR { return .cannotOpen(path: path, reason: "it is a directory") }
        } else if errno == ENOENT, !creating {
            return .databaseNotFound(path: path)
        } else if errno == ENOTDIR {
            return .cannotOpen(path: path, reason: "a part of its folder path is a file, not a folder")
        } else if errno == ENOENT, creating {
            // The file is not there, so its folder may have refused to take it (SQLite's
            // last try, read-only, leaves ENOENT as the open's own error: ask the folder).
            let folder = folder(of: path)
            if access(folder, W_OK | X_OK) != 0, errno == EACCES || errno == EROFS {
                return .cannotOpen(path: path, reason: errno == EROFS
                    ? "its folder \(folder) is on a read-only file system" : "its folder \(folder) is not writable")
            }
        }
        return .cannotOpen(path: path, reason: "the file or its folder cannot be opened or created")
    }
}

/// SQL text written in the source, as the statement cache keys it: by where the text
/// lies in the binary. Comparing addresses costs a few instructions where hashing the
/// text cost thousands on every call (a literal written twice may be cached twice).
struct SQLKey: Equatable {
    /// The text's address; for a literal that has none (a single scalar), the scalar with
    /// the top bit set, which no address in user space has.
    let address: UInt

    init(_ sql: StaticString) {
        address = sql.hasPointerRepresentation ? UInt(bitPattern: sql.utf8Start) : UInt(sql.unicodeScalar.value) | 1 << (UInt.bitWidth - 1)
    }
}
