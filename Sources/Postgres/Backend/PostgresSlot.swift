#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TabStoreKit

/// One connection of the backend, made on first use and made again after the server
/// dropped it.
struct PostgresSlot: ~Copyable {
    let url: DatabaseURL
    let session: PostgresSession
    private var current: PostgresConnection?

    init(url: DatabaseURL, session: PostgresSession) {
        self.url = url
        self.session = session
    }

    /// The slot's connection: the one it has while it works, else `spare()`'s, else a new
    /// one (tried again within `window` while the server is away).
    mutating func connection(
        orSpare spare: () -> sending PostgresConnection?, window: inout FailoverWindow
    ) throws(TabStoreError) -> PostgresConnection {
        if let current, !current.isBroken { return current }
        current = nil
        if let taken = spare(), !taken.isBroken {
            current = taken
            return taken
        }
        let fresh = try Self.connect(url, session: session, window: &window)
        current = fresh
        return fresh
    }

    /// A new connection; while the servers are away for now (refused, starting, standbys
    /// only), tried again until `window` closes. Its settings go in the startup packet.
    static func connect(
        _ url: DatabaseURL, session: PostgresSession, window: inout FailoverWindow
    ) throws(TabStoreError) -> PostgresConnection {
        var pause = 25
        while true {
            do {
                return try PostgresConnection(url: url, session: session)
            } catch {
                guard case .serverUnavailable(_, let reason) = error.reason, ConnectFailure.kind(of: reason) == .transient else { throw error }
                guard window.allowsAnotherTry() else { throw window.tried(error) }
                pause = min(pause * 2, 250)
                sleep(milliseconds: pause + Int.random(in: 0...pause / 5))
            }
        }
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

    var roundTrips: Int { current?.roundTrips ?? 0 }
}

/// How long a call keeps trying after its server went away: from its first failure,
/// `TabStore.Options.failoverWindow`.
struct FailoverWindow {
    let length: Duration
    private var end: ContinuousClock.Instant?

    init(_ length: Duration) {
        self.length = length
    }

    /// Opens the window at the first failure; whether a new try may start now.
    mutating func allowsAnotherTry() -> Bool {
        let now = ContinuousClock.now
        if end == nil { end = now + length }
        return now < end!
    }

    /// What is left of the window: all of it before the first failure, none once closed.
    var remaining: Duration {
        guard let end else { return length }
        return max(end - ContinuousClock.now, .zero)
    }

    /// `error` as the last try's, saying it was tried again for the window. Not the time it
    /// took: a try that started inside the window may run past it (up to the connect timeout).
    func tried(_ error: TabStoreError) -> TabStoreError {
        guard end != nil, length > .zero, case let .serverUnavailable(server, reason) = error.reason else { return error }
        let seconds = Double(length.milliseconds) / 1000
        let shown = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
        return TabStoreError(.serverUnavailable(server: server, reason: reason + " (tried again until the \(shown) s failover window closed)"))
    }
}

extension PostgresSession {
    /// The settings of a store opened with `options`.
    init(_ options: TabStore.Options) {
        self.init(lockTimeout: options.busyTimeout, synchronousCommit: options.durability == .full, serverTimeout: options.serverTimeout)
    }
}

/// Waits, holding nothing but the caller's own locks.
func sleep(milliseconds: Int) {
    var time = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
    nanosleep(&time, nil)
}
