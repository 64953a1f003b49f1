import Dispatch
import TabStoreSQLite

/// A persistent store of named tab sets: their tabs, in order, and which one is selected.
///
/// For example:
/// ```swift
/// let store = try TabStore(path: "/path/tabs.sqlite")
/// try store.add(["Home", "All menu", "Reviews"], to: "store-detail")
/// let change = try store.select(.index(2), in: "store-detail")
/// change.updates   // [(0, Home, not selected), (2, Reviews, selected)]
/// ```
///
/// `TabStore` is safe to share between threads. Writes are serialized on one
/// connection; reads use a second, read-only connection, so they never wait behind a
/// write (WAL lets readers and one writer work at once). Several processes may open the
/// same file at once: every write takes SQLite's write lock up front and waits up to the
/// busy timeout for it. Every call has an `async` twin (``TabStore/select(_:in:ifRevision:)-7joqm``)
/// that waits on the store's own queues, never on the cooperative thread pool.
/// Every method throws only `TabStoreError`, and a call that throws changes nothing.
public final class TabStore: Sendable {
    /// How the store opens its database.
    public struct Options: Sendable, Hashable {
        /// When a returned write is safe on disk.
        public enum Durability: Sendable, Hashable {
            /// A write that returned survives power loss (`PRAGMA synchronous=FULL`). The default.
            case full
            /// A write that returned survives a crash of the process but may be lost on power
            /// loss; several times faster (`PRAGMA synchronous=NORMAL`). For high-frequency use.
            case normal
        }

        public var durability: Durability
        /// How long a call waits for another connection's lock before failing with `.busy`.
        public var busyTimeout: Duration
        /// How many removed tabs each set remembers for `reopen`.
        public var closedTabLimit: Int
        /// How often observers look for changes made by other connections and processes
        /// (one `PRAGMA data_version` read; the journal is read only when it moved).
        public var changePollInterval: Duration
        /// Whether opening a path where no file exists creates the database there. When
        /// false, opening throws `.databaseNotFound` and creates nothing.
        public var createsMissingFile: Bool

        public init(
            durability: Durability = .full,
            busyTimeout: Duration = .seconds(5),
            closedTabLimit: Int = 25,
            changePollInterval: Duration = .milliseconds(50),
            createsMissingFile: Bool = true
        ) {
            self.durability = durability
            self.busyTimeout = busyTimeout
            self.closedTabLimit = closedTabLimit
            self.changePollInterval = changePollInterval
            self.createsMissingFile = createsMissingFile
        }
    }

    /// The database file's path (`:memory:` for an in-memory store).
    public let path: String
    let options: Options
    private let connection: SerializedDatabase
    /// A read-only connection to the same file, so reads never queue behind a write; the
    /// writer's own connection where a second one cannot work (in memory, immutable, or
    /// exclusive locking on a full disk).
    let reader: SerializedDatabase
    let hub: ChangeHub
    /// Where async writes wait for the write lock: one at a time, off the cooperative pool.
    let writeQueue = DispatchQueue(label: "tabstore.write")
    /// Where async reads run: off the cooperative pool, never behind a write.
    let readQueue = DispatchQueue(label: "tabstore.read")

    /// Opens the database at `path`, creating it (but not its folder) when missing unless
    /// `options.createsMissingFile` is false, and brings its schema up to date.
    ///
    /// - Throws: `TabStoreError.schemaTooNew` when the file was written by a newer
    ///   tabstore (the file is left untouched), `.notADatabase`, `.notATabStore`,
    ///   `.corrupt`, `.cannotOpen`, `.databaseNotFound`, `.readOnly` (a read-only file
    ///   that needs migrating), `.busy`.
    public init(path: String, options: Options = Options()) throws(TabStoreError) {
        self.path = path
        self.options = options
        let writer = try Self.open(path: path, options: options)
        let readOnly = try Self.needsOwnReader(writer) ? Self.openReader(path: path, options: options) : nil
        connection = SerializedDatabase(writer)
        if let readOnly {
            reader = SerializedDatabase(readOnly)
        } else {
            reader = connection
        }
        hub = ChangeHub(
            reader: JournalReader(connection: reader), pollInterval: options.changePollInterval,
            watchedPath: reader === connection ? nil : path
        )
    }

    deinit {
        hub.finishAll()
    }

    /// A private, empty store that lives in memory until released.
    public static func inMemory(options: Options = Options()) throws(TabStoreError) -> TabStore {
        try TabStore(path: ":memory:", options: options)
    }

    /// Runs `body` with the writer's connection, one caller at a time.
    func withDatabase<T: Sendable>(_ body: (Database) throws(TabStoreError) -> T) throws(TabStoreError) -> T {
        try connection.withDatabase(body)
    }

    /// Runs `body` with the reader's connection: it never waits for this store's writes.
    func reading<T: Sendable>(_ body: (Database) throws(TabStoreError) -> T) throws(TabStoreError) -> T {
        try reader.withDatabase(body)
    }

    /// Whether reads get a connection of their own: not in memory (a second connection would
    /// be another database), not immutable, not with exclusive locking (it would be locked out).
    private static func needsOwnReader(_ writer: Database) throws(TabStoreError) -> Bool {
        guard writer.path != ":memory:", !writer.path.isEmpty, !writer.isReadOnly else { return false }
        return try writer.lockingMode() != "exclusive"
    }

    /// A read-only connection to the file a writer has opened (and migrated).
    private static func openReader(path: String, options: Options) throws(TabStoreError) -> Database {
        let database = try Database(path: path, flags: SQLITE_OPEN_READONLY)
        database.setBusyTimeout(milliseconds: options.busyTimeout.milliseconds)
        return database
    }

    /// Opens, retrying while another connection holds a lock until the busy timeout is
    /// spent: parts of opening take locks without SQLite's busy handler (turning a new
    /// file to WAL upgrades a read lock to a write lock; exclusive locking takes its lock
    /// once), so a race between first openers would otherwise fail at once.
    private static func open(path: String, options: Options) throws(TabStoreError) -> Database {
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

    private static func openOnce(path: String, options: Options) throws(TabStoreError) -> Database {
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

extension Duration {
    /// Whole milliseconds, saturating instead of overflowing for absurd durations.
    var milliseconds: Int {
        let (seconds, attoseconds) = components
        let (whole, overflow) = Int(seconds).multipliedReportingOverflow(by: 1000)
        if overflow { return seconds < 0 ? .min : .max }
        return whole.addingReportingOverflow(Int(attoseconds / 1_000_000_000_000_000)).partialValue
    }
}
