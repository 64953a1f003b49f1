import Dispatch
import Synchronization
import TabStoreSQLite

/// A SQLite file (or an in-memory database) as a backend: a writer connection, and a
/// read-only reader connection so reads never wait behind a write.
final class SQLiteBackend: TabStoreBackend {
    let path: String
    private let options: TabStore.Options
    private let writer: SerializedDatabase
    /// Whether reads get a read-only connection of their own; not in memory, immutable, or
    /// with exclusive locking on a full disk, where the writer's own serves them.
    private let hasOwnReader: Bool
    /// That connection, opened at the first read: a command that only writes (most CLI
    /// runs) never pays for it.
    private let ownReader = Mutex<SerializedDatabase?>(nil)

    var location: String { path }

    init(path: String, options: TabStore.Options) throws(TabStoreError) {
        self.path = path
        self.options = options
        let database = try Self.open(path: path, options: options)
        hasOwnReader = try Self.needsOwnReader(database)
        writer = SerializedDatabase(database)
    }

    /// The connection reads use.
    private func reader() throws(TabStoreError) -> SerializedDatabase {
        guard hasOwnReader else { return writer }
        return try ownReader.withLock { (reader: inout SerializedDatabase?) throws(TabStoreError) -> SerializedDatabase in
            if let reader { return reader }
            let opened = SerializedDatabase(try Self.openReader(path: path, options: options))
            reader = opened
            return opened
        }
    }

    func write(
        progress: ((Int) -> Void)?, _ planning: (any SnapshotReader) throws(TabStoreError) -> WritePlan
    ) throws(TabStoreError) -> WritePlan {
        try writer.withDatabase { database throws(TabStoreError) in
            try database.writeTransaction { () throws(TabStoreError) in
                let plan = try planning(database)
                try database.execute(plan, progress: progress)
                return plan
            }
        }
    }

    func read<T: Sendable>(_ body: (any TabRecords) throws(TabStoreError) -> T) throws(TabStoreError) -> T {
        try reader().withDatabase { database throws(TabStoreError) in try body(database) }
    }

    /// Runs `body` with the writer's connection itself (a backup copies through it).
    func withWriter<T: Sendable>(_ body: (Database) throws(TabStoreError) -> T) throws(TabStoreError) -> T {
        try writer.withDatabase(body)
    }

    func readJournal(after id: Int, unlessVersionIs version: Int?) throws(TabStoreError) -> JournalRead {
        try reader().withDatabase { database throws(TabStoreError) in
            let now = try database.dataVersion()
            let changes = now == version ? [] : try database.changes(after: id)
            return JournalRead(dataVersion: now, changes: changes)
        }
    }

    func startWakeups(pollInterval: Duration, queue: DispatchQueue, handler: @escaping @Sendable () -> Void) -> any Wakeup {
        // A file watched for writes: only when the reader is a connection of its own (a
        // second in-memory connection would be another database).
        ChangeWakeup(path: hasOwnReader ? path : nil, pollInterval: pollInterval, queue: queue, handler: handler)
    }

    func info() throws(TabStoreError) -> StoreInfo {
        try reader().withDatabase { database throws(TabStoreError) in
            let (version, sets) = try database.readTransaction { () throws(TabStoreError) in
                (try database.schemaState().version, try database.setCount())
            }
            // Outside the transaction: a check that trips over the damage it reports ends a
            // read transaction in error, and it is its own consistent read anyway.
            var problems: [String] = []
            do throws(TabStoreError) {
                try database.quickCheck { problems.append($0) }
            } catch .corrupt {
                problems.append("(the check stopped: the file is too damaged to read further)")
            }
            return StoreInfo(location: path, schemaVersion: version, setCount: sets, storageCheck: problems.joined(separator: "; "))
        }
    }

    var rowsWritten: Int {
        (try? writer.withDatabase { database throws(TabStoreError) in database.totalChanges }) ?? 0
    }

    /// Whether reads get a connection of their own: not in memory (a second connection would
    /// be another database), not immutable, not with exclusive locking (it would be locked out).
    private static func needsOwnReader(_ writer: Database) throws(TabStoreError) -> Bool {
        guard writer.path != ":memory:", !writer.path.isEmpty, !writer.isReadOnly else { return false }
        return try writer.lockingMode() != "exclusive"
    }

    /// A read-only connection to the file a writer has opened (and migrated).
    private static func openReader(path: String, options: TabStore.Options) throws(TabStoreError) -> Database {
        let database = try Database(path: path, flags: SQLITE_OPEN_READONLY)
        database.setBusyTimeout(milliseconds: options.busyTimeout.milliseconds)
        return database
    }

    /// Opens, retrying while another connection holds a lock until the busy timeout is
    /// spent: parts of opening take locks without SQLite's busy handler (turning a new
    /// file to WAL upgrades a read lock to a write lock; exclusive locking takes its lock
    /// once), so a race between first openers would otherwise fail at once.
    private static func open(path: String, options: TabStore.Options) throws(TabStoreError) -> Database {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: options.busyTimeout)
        while true {
            do {
                return try openOnce(path: path, options: options)
            } catch .busy where clock.now < deadline {
                Database.sleep(milliseconds: 5)
            }
        }
    }

    private static func openOnce(path: String, options: TabStore.Options) throws(TabStoreError) -> Database {
        let create = options.createsMissingFile ? SQLITE_OPEN_CREATE : 0
        var database = try Database(path: path, flags: SQLITE_OPEN_READWRITE | create)
        database.setBusyTimeout(milliseconds: options.busyTimeout.milliseconds)
        var schema: SchemaState
        do {
            schema = try database.schemaState()
        } catch .cannotOpen where database.isReadOnly {
            // A WAL database on a read-only file system cannot create its -shm file.
            // Read it as immutable instead: nobody can be writing to it anyway.
            database = try Database(path: path, uri: immutableURI(path), flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI)
            schema = try database.schemaState()
        } catch .diskFull {
            // The first read writes nothing but the -shm file, which cannot be sized on a
            // full disk. Exclusive locking keeps the WAL index in this process's memory
            // instead (no -shm): reads work, and writes fail with "the disk is full".
            database = try Database(path: path, flags: SQLITE_OPEN_READWRITE)
            database.setBusyTimeout(milliseconds: options.busyTimeout.milliseconds)
            try database.lockExclusively()
            schema = try database.schemaState()
        }
        try schema.check(path: path)
        if !database.isReadOnly {
            try database.useWriteAheadLog()
        }
        try database.enforceForeignKeys(syncingFully: options.durability == .full)
        if schema.version < Migration.latestVersion {
            if database.isReadOnly { throw .readOnly(path: path) }
            try database.migrate()
        }
        return database
    }
}

/// `file:` URI for `path` with `immutable=1`; reserved and non-ASCII bytes percent-encoded.
private func immutableURI(_ path: String) -> String {
    var uri = "file:"
    for byte in path.utf8 {
        switch byte {
        case UInt8(ascii: "%"), UInt8(ascii: "?"), UInt8(ascii: "#"), 0x80...:
            let hex = String(byte, radix: 16, uppercase: true)
            uri += "%" + (hex.count == 1 ? "0" + hex : hex)
        default:
            uri.unicodeScalars.append(Unicode.Scalar(byte))
        }
    }
    return uri + "?immutable=1"
}


extension TabStore {
    /// Runs `body` with a file store's writer connection (for tests, which look at
    /// SQLite itself); only ever called on a store opened on a file.
    func withDatabase<T: Sendable>(_ body: (Database) throws(TabStoreError) -> T) throws(TabStoreError) -> T {
        guard let file = backend as? SQLiteBackend else { preconditionFailure("withDatabase on a server store") }
        return try file.withWriter(body)
    }
}
