import Dispatch
import Synchronization
import TabStoreKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A PostgreSQL database as a backend: a writer connection and a reader connection (so
/// reads never wait behind a write), each reconnected when the server dropped it.
final class PostgresBackend: TabStoreBackend {
    let url: DatabaseURL
    let options: TabStore.Options
    /// What messages name: `postgresql://user@host:port/database`, never a password.
    let location: String
    private let writer: Mutex<PostgresSlot>
    private let reader: Mutex<PostgresSlot>
    private let written = Atomic<Int>(0)
    /// Called before each part of a write transaction goes to the server (its snapshot
    /// reads, one per set, then its plan with the COMMIT, in parts of 500 statements), with
    /// how many parts it sent before and the writer's server process id: tests end that
    /// process there, to see the write run again.
    package let beforeSendingPart = Mutex<(@Sendable (_ partsSent: Int, _ processID: Int32) -> Void)?>(nil)

    /// How often a write is tried when the server asks for it to be run again (a
    /// serialization failure or deadlock), or when a set it creates was created by
    /// another client at the same moment.
    static let attempts = 8

    init(url text: String, options: TabStore.Options) throws(TabStoreError) {
        url = try DatabaseURL(text)
        self.options = options
        let first = try PostgresSlot.connect(url, options: options)
        location = first.server
        try PostgresMigrator(connection: first).migrate(creating: options.createsMissingDatabase)
        spare = Mutex(first)
        writer = Mutex(PostgresSlot(url: url, options: options))
        reader = Mutex(PostgresSlot(url: url, options: options))
    }

    /// The connection made to migrate, until the first of the writer and the reader to need
    /// one takes it: a command that only reads, or only writes, connects once.
    private let spare: Mutex<PostgresConnection?>

    /// A new connection for a slot: the spare one while it lasts.
    private func spareConnection() -> sending PostgresConnection? {
        spare.withLock { spare in
            let taken = spare
            spare = nil
            return taken
        }
    }

    func write(
        progress: ((Int) -> Void)?, _ planning: (any SnapshotReader) throws(TabStoreError) -> WritePlan
    ) throws(TabStoreError) -> WritePlan {
        try writer.withLock { (slot: inout PostgresSlot) throws(TabStoreError) -> WritePlan in
            var attempt = 1
            var lostConnection = false
            while true {
                let connection: PostgresConnection
                do throws(TabStoreError) {
                    connection = try slot.connection(orSpare: spareConnection)
                } catch {
                    // The server that dropped this write cannot be reached again (it is
                    // shutting down, restarting): say what happened to the write itself.
                    if lostConnection { throw .connectionLost(server: location, outcomeUnknown: false) }
                    throw error
                }
                let records = PostgresRecords(connection: connection, isWrite: true)
                if let hook = beforeSendingPart.withLock({ $0 }) {
                    records.beforeSendingPart = { partsSent in hook(partsSent, connection.processID) }
                }
                do throws(TabStoreError) {
                    // The plan is a value made from this attempt's snapshot: a retry reads
                    // afresh and plans again.
                    let plan = try planning(records)
                    try records.commit(plan, progress: progress)
                    written.add(records.rowsWritten, ordering: .relaxed)
                    return plan
                } catch {
                    slot.rollBack(records)
                    guard attempt < Self.attempts, Self.mayRetry(records) else { throw error }
                    if case .connectionBroken? = records.failure?.kind { lostConnection = true }
                    attempt += 1
                    Self.pause(attempt: attempt)
                }
            }
        }
    }

    func read<T: Sendable>(_ body: (any TabRecords) throws(TabStoreError) -> T) throws(TabStoreError) -> T {
        try reading(body)
    }

    /// Runs `body` on the reader's connection, again on a new one when the server had dropped it.
    private func reading<T: Sendable>(_ body: (PostgresRecords) throws(TabStoreError) -> T) throws(TabStoreError) -> T {
        try reader.withLock { (slot: inout PostgresSlot) throws(TabStoreError) -> T in
            var attempt = 1
            while true {
                let records = PostgresRecords(connection: try slot.connection(orSpare: spareConnection), isWrite: false)
                do throws(TabStoreError) {
                    return try body(records)
                } catch {
                    // A read is safe to repeat: once on a new connection after a dropped one.
                    guard attempt < 2, records.connection.isBroken else { throw error }
                    slot.drop()
                    attempt += 1
                }
            }
        }
    }

    /// Whether the failed transaction may run again: the server asked for it, or the
    /// connection broke before any commit was sent (nothing of it was applied), or a set
    /// it created was created by another client meanwhile (it will now find that set).
    private static func mayRetry(_ records: PostgresRecords) -> Bool {
        guard let failure = records.failure else { return false }
        if failure.isRetryable { return true }
        switch failure.kind {
        case .connectionBroken:
            return !records.commitSent
        case let .server(sqlState, _, constraint):
            return sqlState == "23505" && constraint == "tab_set_name_unique"
        }
    }

    /// Backs off a little more each time, with jitter, so that clients that collided
    /// do not collide again.
    private static func pause(attempt: Int) {
        sleep(milliseconds: min(1 << attempt, 100) + Int.random(in: 0...5))
    }

    func readJournal(after id: Int, unlessVersionIs version: Int?) throws(TabStoreError) -> JournalRead {
        // No cheap "did anything commit" here: the journal read itself is one indexed query.
        do {
            return try reading { records throws(TabStoreError) in
                JournalRead(dataVersion: nil, changes: try records.changes(after: id))
            }
        } catch .serverUnavailable, .connectionLost {
            // The server went away (a restart) between a wake-up and this read: that ends
            // no observer. Nothing is lost: the listener reconnects and wakes the hub
            // again, which reads on from the last change it handed out.
            return JournalRead(dataVersion: nil, changes: [])
        }
    }

    /// Every change is seen: the listener and the journal are the server's.
    var changesUnseen: TabStoreError? { nil }

    func startWakeups(pollInterval: Duration, queue: DispatchQueue, handler: @escaping @Sendable () -> Void) -> any Wakeup {
        PostgresListener(url: url, options: options, pollInterval: pollInterval, queue: queue, handler: handler)
    }

    func info() throws(TabStoreError) -> StoreInfo {
        try reading { postgres throws(TabStoreError) in
            try postgres.readTransaction { () throws(TabStoreError) in
                // The server enforces the rules itself (constraint triggers); their check is
                // the store's, run above every backend.
                StoreInfo(
                    location: location, schemaVersion: try PostgresMigrator.version(postgres.connection, server: location),
                    setCount: try postgres.setCount()
                )
            }
        }
    }

    var rowsWritten: Int { written.load(ordering: .relaxed) }
}

/// One connection of the backend, made on first use and made again after the server
/// dropped it.
struct PostgresSlot: ~Copyable {
    let url: DatabaseURL
    let options: TabStore.Options
    private var current: PostgresConnection?

    init(url: DatabaseURL, options: TabStore.Options) {
        self.url = url
        self.options = options
    }

    /// The slot's connection: the one it has while it works, else `spare()`'s, else a new one.
    mutating func connection(orSpare spare: () -> sending PostgresConnection?) throws(TabStoreError) -> PostgresConnection {
        if let current, !current.isBroken { return current }
        current = nil
        if let taken = spare(), !taken.isBroken {
            current = taken
            return taken
        }
        let fresh = try Self.connect(url, options: options)
        current = fresh
        return fresh
    }

    /// A connection with the store's settings: `lock_timeout` is the busy timeout, and
    /// `.normal` durability does not wait for the server's WAL flush.
    static func connect(_ url: DatabaseURL, options: TabStore.Options) throws(TabStoreError) -> PostgresConnection {
        let connection = try PostgresConnection(url: url)
        let synchronous = options.durability == .full ? "on" : "off"
        do {
            _ = try connection.pipeline([
                PostgresStatement("SELECT set_config('lock_timeout', $1, false)", [String(max(options.busyTimeout.milliseconds, 1)) + "ms"]),
                PostgresStatement("SELECT set_config('synchronous_commit', $1, false)", [synchronous]),
            ])
        } catch {
            throw error.storeError(server: connection.server, outcomeUnknown: false)
        }
        return connection
    }

    /// Ends a failed write: ROLLBACK when the connection still works, else drops it.
    mutating func rollBack(_ records: PostgresRecords) {
        // A write refused before its first round trip never began a transaction.
        guard records.sentAnything else { return }
        guard let current, !current.isBroken else {
            self.current = nil
            return
        }
        if (try? current.execute("ROLLBACK")) == nil { self.current = nil }
    }

    mutating func drop() {
        current = nil
    }
}

// What the benchmark counts per edit (`TabStoreBench --only postgres`).
extension PostgresBackend {
    /// Requests the writer's and reader's current connections waited for so far.
    package var roundTrips: Int { writer.withLock { $0.roundTrips } + reader.withLock { $0.roundTrips } }
}

extension PostgresSlot {
    var roundTrips: Int { current?.roundTrips ?? 0 }
}

extension TabStore {
    /// Round trips of a PostgreSQL store's connections so far; nil for a file.
    package var postgresRoundTrips: Int? { (backend as? PostgresBackend)?.roundTrips }
}

/// Waits, holding nothing but the caller's own locks.
func sleep(milliseconds: Int) {
    var time = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
    nanosleep(&time, nil)
}
