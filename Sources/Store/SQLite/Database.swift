import Synchronization
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
    /// Prepared statements by their SQL text, prepared on first use: a store runs a few
    /// dozen statements again and again.
    private var statements: [String: Statement] = [:]

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
            throw TabStoreError(.cannotOpen(path: path, reason: refused))
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
    /// The busy handler's state (see LockWait.swift), in memory of its own as long as the
    /// connection: its address is the C callback's context.
    var lockWaitContext: UnsafeMutablePointer<LockWait>?

    deinit {
        closeNow()
        lockWaitContext?.deinitialize(count: 1)
        lockWaitContext?.deallocate()
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

    var cachedStatementCount: Int { statements.count }

    /// Finalizes every cached statement.
    func clearStatementCache() {
        statements.removeAll()
    }

    func setBusyTimeout(milliseconds: Int) {
        sqlite3_busy_timeout(handle, Int32(clamping: milliseconds))
    }

    /// The cached prepared statement for `sql`, prepared on first use.
    func cachedStatement(_ sql: String) throws(TabStoreError) -> Statement {
        if let statement = statements[sql] { return statement }
        let statement: Statement
        do {
            statement = try Statement(database: handle, sql: sql)
        } catch {
            throw error.storeError(path: path)
        }
        statements[sql] = statement
        return statement
    }

    /// Runs `sql` (one statement, cached) to completion with `values` bound to its parameters.
    func execute(_ sql: String, _ values: [SQLValue] = []) throws(TabStoreError) {
        try run(cachedStatement(sql), values)
    }

    /// Runs a statement fetched with `cachedStatement` to completion: for a loop that runs
    /// one statement many times (an import's tabs), without looking it up each time.
    func run(_ statement: Statement, _ values: [SQLValue]) throws(TabStoreError) {
        statement.bind(values)
        defer { statement.reset() }
        while try step(statement) {}
    }

    /// Calls `row` for each result row of `sql` (one statement, cached) with `values`
    /// bound to its parameters.
    func forEachRow(_ sql: String, _ values: [SQLValue] = [], row: (Statement) throws(TabStoreError) -> Void) throws(TabStoreError) {
        let statement = try cachedStatement(sql)
        statement.bind(values)
        defer { statement.reset() }
        while try step(statement) { try row(statement) }
    }

    /// The first result row of `sql` read by `row`, or `nil` when there is none.
    func firstRow<T>(_ sql: String, _ values: [SQLValue] = [], row: (Statement) throws(TabStoreError) -> T) throws(TabStoreError) -> T? {
        let statement = try cachedStatement(sql)
        statement.bind(values)
        defer { statement.reset() }
        return try step(statement) ? row(statement) : nil
    }

    /// One step of a cached statement. After a failure the statement leaves the cache, to be
    /// prepared afresh next time rather than reused in whatever state the failure left it.
    private func step(_ statement: Statement) throws(TabStoreError) -> Bool {
        do {
            return try statement.step()
        } catch {
            if statements[statement.sql] === statement { statements[statement.sql] = nil }
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
        _ begin: String, _ body: () throws(TabStoreError) -> T
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
        if systemError == ENOENT, !creating { return TabStoreError(.databaseNotFound(path: path)) }
        var status = stat()
        if stat(path, &status) == 0 {
            if status.st_mode & S_IFMT == S_IFDIR { return TabStoreError(.cannotOpen(path: path, reason: "it is a directory")) }
        } else if errno == ENOENT, !creating {
            return TabStoreError(.databaseNotFound(path: path))
        } else if errno == ENOTDIR {
            return TabStoreError(.cannotOpen(path: path, reason: "a part of its folder path is a file, not a folder"))
        } else if errno == ENOENT, creating {
            // The file is not there, so its folder may have refused to take it (SQLite's
            // last try, read-only, leaves ENOENT as the open's own error: ask the folder).
            let folder = folder(of: path)
            if access(folder, W_OK | X_OK) != 0, errno == EACCES || errno == EROFS {
                return TabStoreError(.cannotOpen(path: path, reason: errno == EROFS
                    ? "its folder \(folder) is on a read-only file system" : "its folder \(folder) is not writable"))
            }
        }
        return TabStoreError(.cannotOpen(path: path, reason: "the file or its folder cannot be opened or created"))
    }
}

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

extension Database {
    /// The row id of the last row this connection inserted.
    var lastInsertedID: Int { Int(sqlite3_last_insert_rowid(handle)) }
}

/// One connection, used by one caller at a time. The store and its change hub share it;
/// neither owns the other.
final class SerializedDatabase: Sendable {
    private let database: Mutex<Database>

    init(_ database: sending Database) {
        self.database = Mutex(database)
    }

    /// Runs `body` with the connection, one caller at a time.
    func withDatabase<T: Sendable, Failure: Error>(_ body: (Database) throws(Failure) -> T) throws(Failure) -> T {
        try database.withLock { (database: inout Database) throws(Failure) -> T in
            try body(database)
        }
    }
}
