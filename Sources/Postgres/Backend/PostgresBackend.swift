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
///
/// A call whose server went away before anything was committed (a restart, a primary
/// replaced by its promoted standby) connects again and runs again until the failover
/// window has passed since its first failure; every request has a deadline.
final class PostgresBackend: TabStoreBackend {
    let url: DatabaseURL
    let options: TabStore.Options
    let session: PostgresSession
    /// What all the lock waits of one write may take; nil: as long as they take.
    private let lockBudget: Duration?
    /// What messages name: `postgresql://user@host:port/database`, never a password.
    let location: String
    private let writer: Mutex<PostgresSlot>
    private let reader: Mutex<PostgresSlot>
    /// Called before each part of a write transaction goes to the server (its snapshot
    /// reads, one per set, then its plan with the COMMIT, in parts of 500 statements), with
    /// how many parts it sent before and the writer's server process id: tests end that
    /// process there, to see the write run again.
    package let beforeSendingPart = Mutex<(@Sendable (_ partsSent: Int, _ processID: Int32) -> Void)?>(nil)
    /// The part of the next write after whose sending its connection is cut, once (tests:
    /// the server runs what it got, and its answer is lost).
    package let cutAfterSendingPart = Mutex<Int?>(nil)
    /// Whether the server answers, as the journal reads and the listener find it.
    let status = PostgresServerStatus()
    /// What the journal reads and the listener share.
    let journal = PostgresJournalState()

    /// How often a write is tried when the server asks for it to be run again (a
    /// serialization failure or deadlock), or when a set it creates was created by
    /// another client at the same moment.
    static let attempts = 8

    init(url text: String, options: TabStore.Options) throws(TabStoreError) {
        url = try DatabaseURL(text)
        self.options = options
        // A lock_timeout in the URL's options is the busy timeout (0: locks are waited for).
        var session = PostgresSession(options)
        if let given = url.lockTimeout, given > .zero { session.lockTimeout = given }
        self.session = session
        lockBudget = url.lockTimeout == .zero ? nil : session.lockTimeout
        let first = try Self.connectAndMigrate(url, session: session, options: options)
        location = first.server
        spare = Mutex(first)
        writer = Mutex(PostgresSlot(url: url, session: session))
        reader = Mutex(PostgresSlot(url: url, session: session))
    }

    /// A connection to a database whose schema is up to date: its first requests (the
    /// schema check, a migration's steps) run again on a new connection, within the
    /// failover window, when the server went away under them. Each step is a transaction
    /// that first reads the version, so a step whose COMMIT was lost is not applied twice.
    private static func connectAndMigrate(
        _ url: DatabaseURL, session: PostgresSession, options: TabStore.Options
    ) throws(TabStoreError) -> PostgresConnection {
        var window = FailoverWindow(options.failoverWindow)
        var lost: TabStoreError?
        while true {
            let connection: PostgresConnection
            do throws(TabStoreError) {
                connection = try PostgresSlot.connect(url, session: session, window: &window)
            } catch {
                throw PostgresServerStatus.isAway(error) ? lost ?? error : error
            }
            do throws(TabStoreError) {
                try PostgresMigrator(connection: connection).migrate(creating: options.createsMissingDatabase)
                return connection
            } catch {
                // A server silent for a whole request's deadline is not waited for again.
                guard connection.isBroken, PostgresServerStatus.isAway(error), error.code != .serverNotAnswering,
                      window.allowsAnotherTry() else { throw lost ?? error }
                lost = lost ?? error
            }
        }
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
        progress: ((Int) -> Void)?, _ planning: (any WriteReader) throws(TabStoreError) -> WritePlan
    ) throws(TabStoreError) -> WritePlan {
        try writer.withLock { (slot: inout PostgresSlot) throws(TabStoreError) -> WritePlan in
            var attempt = 1
            var window = FailoverWindow(options.failoverWindow)
            // One busy timeout for every lock of every try.
            let budget = lockBudget.map { PostgresLockBudget($0) }
            // What became of the write when its server went away: said if no new try succeeds.
            var lost: TabStoreError?
            while true {
                let connection: PostgresConnection
                do throws(TabStoreError) {
                    connection = try slot.connection(orSpare: spareConnection, window: &window)
                } catch {
                    throw lost ?? error
                }
                let records = PostgresRecords(connection: connection, isWrite: true)
                records.lockBudget = budget
                if let hook = beforeSendingPart.withLock({ $0 }) {
                    records.beforeSendingPart = { partsSent in hook(partsSent, connection.processID) }
                }
                records.cutAfterSendingPart = cutAfterSendingPart.withLock { part in
                    defer { part = nil }
                    return part
                }
                // This try's id, in its journal rows: looked up if its COMMIT is lost in flight,
                // once the server process that took it has ended.
                let changeID = TabID().uuidString
                let process = connection.processID
                // Kept for the catch: a plan whose COMMIT was lost is settled, not planned again.
                var plan: WritePlan?
                do throws(TabStoreError) {
                    // The plan is a value made from this attempt's snapshot: a retry reads
                    // afresh and plans again.
                    let made = try planning(records)
                    plan = made
                    try records.commit(made, changeID: changeID, progress: progress)
                    return made
                } catch {
                    slot.rollBack(records)
                    switch records.failure?.meaning(in: connection.failureContext(outcomeUnknown: records.commitSent)).retry {
                    case .now?:
                        guard attempt < Self.attempts else { throw error }
                        attempt += 1
                        Self.pause(attempt: attempt)
                    case .reconnect?:
                        guard window.allowsAnotherTry() else { throw lost ?? error }
                        lost = lost ?? error
                        slot.drop()
                    case .settle?:
                        guard let plan else { throw error }
                        // A plan that writes nothing leaves nothing to find: whatever became
                        // of its COMMIT, nothing changed.
                        guard plan.writes.contains(where: \.isJournalRow) else { return plan }
                        switch settle(changeID, afterProcess: process, slot: &slot, window: &window) {
                        case true?:
                            if let end = records.progressAtCommit, end != records.progressReported { progress?(end) }
                            return plan
                        case false?:
                            // Not applied: nothing changed, so it runs again while the window lasts.
                            let notSaved = TabStoreError(.connectionLost(server: location, outcomeUnknown: false))
                            guard window.allowsAnotherTry() else { throw notSaved }
                            lost = notSaved
                        case nil:
                            throw error
                        }
                    default:
                        throw PostgresPrivileges.named(error, on: connection)
                    }
                }
            }
        }
    }

    /// Whether the server process `$1` may still be in a transaction: not gone, and not
    /// idle outside one.
    private static let stillCommitting = """
        SELECT 1 FROM pg_catalog.pg_stat_activity WHERE pid = $1 AND state IS DISTINCT FROM 'idle'
        """

    /// Whether the write whose journal rows carry `changeID` was committed, asked on a new
    /// connection once the server process that took its COMMIT (`afterProcess`) has ended
    /// or is idle; nil when no server answers that within the failover window. Each
    /// connect and each lookup waits no longer than the window has left: the lookup ends
    /// with it.
    private func settle(
        _ changeID: String, afterProcess process: Int32, slot: inout PostgresSlot, window: inout FailoverWindow
    ) -> Bool? {
        slot.drop()
        while window.allowsAnotherTry() {
            // The lookups wait for no lock: the server's lock timeout is the least it takes.
            var bounded = session
            bounded.serverTimeout = min(session.serverTimeout, max(window.remaining, .milliseconds(1)))
            bounded.lockTimeout = .zero
            do throws(TabStoreError) {
                // A connection of its own: the slot's next one has the full deadlines.
                let connection = try PostgresConnection(url: url, session: bounded)
                defer { connection.close() }
                do throws(PostgresFailure) {
                    // The old process may still be applying the COMMIT: its end, or its being
                    // idle outside any transaction, settles it.
                    while try connection.execute(Self.stillCommitting, [String(process)]).count > 0 {
                        guard window.allowsAnotherTry() else { return nil }
                        sleep(milliseconds: 20)
                    }
                    return try connection.execute(PostgresRecords.changeSaved, [changeID]).count > 0
                } catch {
                    // Tried again on a new connection while the window lasts.
                }
            } catch {
                guard case .serverUnavailable(_, let reason) = error.reason, ConnectFailure.kind(of: reason) == .transient else { return nil }
            }
            sleep(milliseconds: 25)
        }
        return nil
    }

    func read<T: Sendable>(_ body: (any StoreRecords) throws(TabStoreError) -> T) throws(TabStoreError) -> T {
        try reading(body)
    }

    /// Runs `body` on the reader's connection; again on a new one, within the failover
    /// window, when the server went away (a read is always safe to repeat).
    private func reading<T: Sendable>(_ body: (PostgresRecords) throws(TabStoreError) -> T) throws(TabStoreError) -> T {
        try reader.withLock { (slot: inout PostgresSlot) throws(TabStoreError) -> T in
            var window = FailoverWindow(options.failoverWindow)
            var lost: TabStoreError?
            while true {
                let connection: PostgresConnection
                do throws(TabStoreError) {
                    connection = try slot.connection(orSpare: spareConnection, window: &window)
                } catch {
                    // A refusal for good (the database dropped, the login revoked) says
                    // more of the read than the lost connection before it.
                    throw PostgresServerStatus.isAway(error) ? lost ?? error : error
                }
                let records = PostgresRecords(connection: connection, isWrite: false)
                do throws(TabStoreError) {
                    return try body(records)
                } catch {
                    guard records.failure?.meaning(in: connection.failureContext(outcomeUnknown: false)).retry == .reconnect else {
                        throw PostgresPrivileges.named(error, on: connection)
                    }
                    guard window.allowsAnotherTry() else { throw lost ?? error }
                    lost = lost ?? error
                    slot.drop()
                }
            }
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
            let followed = journal.followed.withLock { $0 }
            let read = try reading { records throws(TabStoreError) in try records.changes(after: id, inSets: followed) }
            journal.heldBack.store(read.heldBack, ordering: .relaxed)
            // A listener asleep until the next notification must read again soon instead.
            if read.heldBack { journal.bell.withLock { $0 }?.ring() }
            status.answered()
            return JournalRead(dataVersion: nil, changes: read.changes)
        } catch {
            // The server went away (a restart, a failover) between a wake-up and this
            // read: that ends no observer. Nothing is lost: the listener reconnects and
            // wakes the hub again, which reads on from the last change it handed out.
            // A refusal for good (the database dropped, access revoked) ends them.
            guard PostgresServerStatus.isAway(error) else { throw error }
            status.wentAway(error)
            return JournalRead(dataVersion: nil, changes: [])
        }
    }

    /// The server ends the sessions of a process that ended.
    func closeAndEnd(_ end: () -> Never) -> Never { end() }

    /// Every change is seen: the listener and the journal are the server's.
    var changesUnseen: TabStoreError? { nil }

    /// A server's lock waits are not cut short: a suspended app holds no lock of a server.
    func holdBackLockWaits(_ on: Bool) {}

    /// A server's store only ever serves devices: its sets are the ones devices sync with.
    var syncDevice: (any SyncDeviceBackend)? { nil }

    /// A server has no file to copy: `tabstore export` (or pg_dump) copies its sets.
    func backup(to path: String, replacing: Bool, progress: (BackupProgress) -> Void) throws(TabStoreError) {
        throw TabStoreError(.backupNeedsFile(database: location))
    }

    func startWakeups(pollInterval: Duration, queue: DispatchQueue, handler: @escaping @Sendable () -> Void) -> any Wakeup {
        PostgresListener(url: url, session: session, status: status, journal: journal, pollInterval: pollInterval, queue: queue, handler: handler)
    }

    func info() throws(TabStoreError) -> StoreInfo {
        try reading { postgres throws(TabStoreError) in
            try postgres.readTransaction { () throws(TabStoreError) in
                // The server enforces the rules itself (constraint triggers); their check is
                // the store's, run above every backend.
                StoreInfo(location: location, schemaVersion: try PostgresMigrator.version(postgres), setCount: try postgres.setCount())
            }
        }
    }
}

// What the benchmark counts per edit (`TabStoreBench --only postgres`).
extension PostgresBackend {
    /// Requests the writer's and reader's current connections waited for so far.
    package var roundTrips: Int { writer.withLock { $0.roundTrips } + reader.withLock { $0.roundTrips } }
}

extension TabStore {
    /// Round trips of a PostgreSQL store's connections so far; nil for a file.
    package var postgresRoundTrips: Int? { (backend as? PostgresBackend)?.roundTrips }
}
