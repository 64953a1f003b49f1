import Dispatch

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
        /// On a server: how long it may take to answer beyond waiting for a lock (the busy
        /// timeout), when connecting and for each request, before a call gives up with
        /// `.serverNotAnswering` (or `.serverUnavailable` when connecting).
        public var serverTimeout: Duration
        /// On a server: how long a call keeps trying when its server went away before
        /// anything was committed (a restart, a standby being promoted): it reconnects and
        /// runs again until this much time has passed since the first failure. Zero tries once.
        public var failoverWindow: Duration

        public init(
            durability: Durability = .full,
            busyTimeout: Duration = .seconds(5),
            closedTabLimit: Int = 25,
            changePollInterval: Duration = .milliseconds(50),
            createsMissingFile: Bool = true,
            serverTimeout: Duration = .seconds(10),
            failoverWindow: Duration = .seconds(5)
        ) {
            self.durability = durability
            self.busyTimeout = busyTimeout
            self.closedTabLimit = closedTabLimit
            self.changePollInterval = changePollInterval
            self.createsMissingFile = createsMissingFile
            self.serverTimeout = serverTimeout
            self.failoverWindow = failoverWindow
        }
    }

    /// The database file's path (`:memory:` for an in-memory store); for a server, its
    /// URL as `postgresql://user@host:port/database`, without a password.
    public let path: String
    let options: Options
    /// The database the rules run over: a SQLite file, or a server (TabStorePostgres).
    package let backend: any TabStoreBackend
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
    public convenience init(path: String, options: Options = Options()) throws(TabStoreError) {
        self.init(backend: try SQLiteBackend(path: path, options: options), options: options)
    }

    /// A store over `backend`, opened and migrated.
    package init(backend: any TabStoreBackend, options: Options) {
        self.path = backend.location
        self.options = options
        self.backend = backend
        hub = ChangeHub(backend: backend, pollInterval: options.changePollInterval)
    }

    deinit {
        hub.finishAll()
    }

    /// A private, empty store that lives in memory until released.
    public static func inMemory(options: Options = Options()) throws(TabStoreError) -> TabStore {
        try TabStore(path: ":memory:", options: options)
    }

    /// Runs `body` on the reader's connection: it never waits for this store's writes.
    func reading<T: Sendable>(_ body: (any TabRecords) throws(TabStoreError) -> T) throws(TabStoreError) -> T {
        try backend.read(body)
    }
}

extension Duration {
    /// Whole milliseconds, saturating instead of overflowing for absurd durations.
    package var milliseconds: Int {
        let (seconds, attoseconds) = components
        let (whole, overflow) = Int(seconds).multipliedReportingOverflow(by: 1000)
        if overflow { return seconds < 0 ? .min : .max }
        return whole.addingReportingOverflow(Int(attoseconds / 1_000_000_000_000_000)).partialValue
    }
}
