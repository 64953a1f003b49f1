import Dispatch
import Synchronization

/// A persistent store of named tab sets: their tabs, in order, and which one is selected.
///
/// For example:
/// ```swift
/// let store = try TabStore(path: "/path/tabs.sqlite")
/// try store.add(["Home", "All menu", "Reviews"], to: "store-detail", creatingSet: true)
/// let change = try store.select(.index(2), in: "store-detail")
/// change.updates   // [(0, Home, not selected), (2, Reviews, selected)]
/// ```
///
/// `TabStore` is safe to share between threads. Writes are serialized on one
/// connection; reads use a second, read-only connection, so they never wait behind a
/// write (WAL lets readers and one writer work at once). Several processes may open the
/// same file at once: every write takes SQLite's write lock up front and waits up to the
/// busy timeout for it. From async code, make the calls in ``TabStore/read(_:)`` or
/// ``TabStore/write(_:)``: they wait on the store's own queues, never on the cooperative
/// thread pool.
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

        /// When a returned write is safe: for a file, its `PRAGMA synchronous`; on a server,
        /// whether a commit waits for the server's WAL flush (`synchronous_commit`).
        public var durability: Durability
        /// How long a call waits for another connection's lock before failing with `.busy`.
        public var busyTimeout: Duration
        /// How many removed tabs each set remembers for `reopen`.
        public var closedTabLimit: Int
        /// How often observers look for changes made by other connections and processes where
        /// the database gives no notice of them: a file whose folder cannot be watched (no
        /// inotify watch left, a `-wal` file that cannot be opened) or that is read-only to
        /// this process. Each look is one cheap read, and the journal is read only when it
        /// moved. A watched file and a store in memory never poll; a server's `LISTEN` has a
        /// look every 30 seconds beside it.
        public var changePollInterval: Duration
        /// Whether opening a database that does not exist yet (no file, or an empty one;
        /// on a server, no tabstore tables) creates it (a file with the folders above it).
        /// When false, opening throws `.databaseNotFound` and creates and writes nothing:
        /// what a reader wants.
        public var createsMissingDatabase: Bool

        /// On a server: how long it may take to answer beyond waiting for a lock (the busy
        /// timeout), when connecting and for each request, before a call gives up with
        /// `.serverNotAnswering` (or `.serverUnavailable` when connecting).
        public var serverTimeout: Duration
        /// On a server: how long a call keeps trying when its server went away before
        /// anything was committed (a restart, a standby being promoted): it reconnects and
        /// runs again until this much time has passed since the first failure. Zero tries once.
        public var failoverWindow: Duration
        /// For a file: whether reads get a read-only connection of their own (opened at the
        /// first read), so that they never wait behind this store's writes. `false`: the one
        /// connection serves both, and opening a second is saved: for a process that makes
        /// one call and ends (the `tabstore` command does so). Observers follow the file
        /// either way.
        public var concurrentReads = true

        public init(
            durability: Durability = .full,
            busyTimeout: Duration = .seconds(5),
            closedTabLimit: Int = 25,
            changePollInterval: Duration = .milliseconds(50),
            createsMissingDatabase: Bool = true,
            serverTimeout: Duration = .seconds(10),
            failoverWindow: Duration = .seconds(5)
        ) {
            self.durability = durability
            self.busyTimeout = busyTimeout
            self.closedTabLimit = closedTabLimit
            self.changePollInterval = changePollInterval
            self.createsMissingDatabase = createsMissingDatabase
            self.serverTimeout = serverTimeout
            self.failoverWindow = failoverWindow
        }

        /// Why no store can work with these options (opening throws it), or nil.
        package var problem: TabStoreError? {
            func invalid(_ name: String, _ reason: String) -> TabStoreError { TabStoreError(.invalidOption(name: name, reason: reason)) }
            if closedTabLimit < 0 { return invalid("closedTabLimit", "\(closedTabLimit) is negative (0 remembers no removed tab)") }
            if busyTimeout < .zero { return invalid("busyTimeout", "\(busyTimeout) is negative (0 does not wait)") }
            if changePollInterval <= .zero { return invalid("changePollInterval", "\(changePollInterval) is not more than zero") }
            if serverTimeout <= .zero { return invalid("serverTimeout", "\(serverTimeout) is not more than zero") }
            if failoverWindow < .zero { return invalid("failoverWindow", "\(failoverWindow) is negative (0 tries once)") }
            return nil
        }
    }

    /// The database file's path (`:memory:` for an in-memory store); for a server, its
    /// URL as `postgresql://user@host:port/database`, without a password.
    public let location: String
    let options: Options
    /// The database the rules run over: a SQLite file, or a server (TabStorePostgres).
    package let backend: any TabStoreBackend
    let hub: ChangeHub
    /// Where `write(_:)`'s closures wait for the write lock: one at a time, off the cooperative pool.
    let writeQueue = DispatchQueue(label: "tabstore.write")
    /// Where `read(_:)`'s closures run: off the cooperative pool, never behind a write.
    let readQueue = DispatchQueue(label: "tabstore.read")
    /// Holds `write(_:)`'s closures back while the app is suspended (TabStore+Suspension).
    let suspension: SuspensionGate
    /// The sets this store last wrote or read, at their revisions (see `SetCache`).
    let setCache = Mutex(SetCache())

    /// Opens the database at `path`, creating it and its missing folders (mode 0700) unless
    /// `options.createsMissingDatabase` is false, and brings its schema up to date. Nothing is
    /// written to a file before it is recognised as tabstore's (or empty). An older file
    /// that cannot be written is read through a copy upgraded in memory; its writes throw.
    ///
    /// - Throws: `TabStoreError.Code.schemaTooNew` when the file was written by a newer
    ///   tabstore (the file is left untouched), `.notADatabase`, `.notATabStore` (another
    ///   program's file, left untouched), `.corrupt`, `.cannotOpen` (also for a folder that
    ///   cannot be made, and for a path that names no file: empty, holding a NUL, or past the
    ///   system's length limits; folders it made are removed again),
    ///   `.databaseNotFound`, `.readOnly` (an empty read-only file to create a database in),
    ///   `.folderNotWritable` (changes in the `-wal` that cannot be read
    ///   without a `-shm` file), `.busy`; `.invalidOption` for options no store can work
    ///   with (nothing is opened or created).
    public convenience init(path: String, options: Options = Options()) throws(TabStoreError) {
        if let problem = options.problem { throw problem }
        if let problem = unusableFileName(path) { throw TabStoreError(.cannotOpen(path: path, reason: problem)) }
        let madeFolders = options.createsMissingDatabase ? try createMissingFolders(above: path) : []
        let backend: SQLiteBackend
        do {
            backend = try SQLiteBackend(path: path, options: options)
        } catch {
            removeFolders(madeFolders)
            throw error
        }
        self.init(backend: backend, options: options)
    }

    /// A store over `backend`, opened and migrated.
    package init(backend: any TabStoreBackend, options: Options) {
        location = backend.location
        self.options = options
        self.backend = backend
        hub = ChangeHub(backend: backend, pollInterval: options.changePollInterval)
        suspension = SuspensionGate(backend: backend)
    }

    deinit {
        hub.finishAll()
    }

    /// A private, empty store that lives in memory until released.
    public static func inMemory(options: Options = Options()) throws(TabStoreError) -> TabStore {
        try TabStore(path: ":memory:", options: options)
    }

    /// Closes the store's connections and calls `end`, which ends the process (`_exit`), for
    /// a process that ends without releasing its store, from any thread (the CLI's `watch`
    /// on a signal). On a file, a write in progress on another thread is waited for and
    /// none starts after it; the file then holds every change, and this process leaves no
    /// -wal or -shm file behind. On a server, `end` is called at once: the server rolls
    /// back what was not committed.
    package func closeAndEnd(_ end: () -> Never) -> Never {
        backend.closeAndEnd(end)
    }

    /// Why other processes' changes cannot be seen through this store, when they cannot
    /// (a file in a folder this process cannot write, where SQLite cannot keep its -shm file):
    /// `nil` when they can. An observer asks first, to refuse at once rather than wait.
    package var changesUnseen: TabStoreError? { backend.changesUnseen }

    /// Runs `body` on the reader's connection: it never waits for this store's writes.
    func reading<T: Sendable>(_ body: (any TabRecords) throws(TabStoreError) -> T) throws(TabStoreError) -> T {
        try backend.read(body)
    }

    /// One write transaction (`TabStoreBackend.write`), told to the suspension gate once
    /// committed.
    func transaction(
        progress: ((Int) -> Void)? = nil, _ planning: (any WriteReader) throws(TabStoreError) -> WritePlan
    ) throws(TabStoreError) -> WritePlan {
        let plan = try backend.write(progress: progress, planning)
        suspension.noteCommit()
        return plan
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
