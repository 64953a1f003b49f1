import Dispatch
import Foundation
import Synchronization
import TabStoreKit
import TabStorePostgres
import TabStoreTestSupport

/// One PostgreSQL server shared by a fleet: N clients at once (threads, each with its own
/// store and set), beside N raw libpq clients sending the same statements (as pgbench
/// would: one connection each, no rules), for `select` (a write), `restore` (a read) and a
/// mixed load; and what 64 idle watchers of other sets cost four writers. The server is a
/// throwaway one on loopback with fsync on, sharing the machine's cores with the clients.
struct FleetGroup {
    let size: BenchSize

    static let clients = [1, 4, 16, 64]
    static let watchers = 64

    /// The loads, and what a client does in each step of one.
    enum Load: String, CaseIterable {
        case select, restore, mixed

        /// Targets where the issue sets them: reads scale with clients, writes are near raw.
        func target(clients: Int) -> Target? {
            switch (self, clients) {
            case (.select, 16), (.select, 64): .ratio(atLeast: 0.5)
            case (.restore, 16): .ratio(atLeast: 0.7)
            default: nil
            }
        }
    }

    func run() -> [Row] {
        guard PostgresServer.isAvailable else { return Self.missingRows(because: "PostgreSQL is not installed here") }
        let server: PostgresServer
        do {
            progress("fleet: starting a throwaway server (fsync on)")
            server = try PostgresServer.start(settings: ["fsync": "on", "full_page_writes": "on", "synchronous_commit": "on"])
        } catch {
            return Self.missingRows(because: "\(error)")
        }
        defer { server.destroy() }
        var rows: [Row] = []
        do {
            let url = try server.createDatabase()
            let most = Self.clients.max()!
            // Every client's set, made once: "fleet 0" ... and the watched "idle 0" ...
            let setup = try TabStore(postgresURL: url)
            for number in 0..<max(most, Self.watchers) {
                try setup.add(Fixture.titles(10), to: "fleet \(number)", creatingSet: true)
                try setup.add(Fixture.titles(3), to: "idle \(number)", creatingSet: true)
            }
            let stores = try (0..<most).map { _ in try TabStore(postgresURL: url) }
            let raws = try (0..<most).map { _ in try RawPostgresTabStore(url: url) }
            for load in Load.allCases {
                for clients in Self.clients {
                    progress("fleet: \(load.rawValue), \(clients) client(s)")
                    let rates = try measure(load, clients: clients, stores: stores, raws: raws)
                    rows.append(Row(
                        "fleet" + load.rawValue.prefix(1).uppercased() + load.rawValue.dropFirst() + "\(clients)",
                        "fleet on one PostgreSQL server: \(load.rawValue), \(clients) client(s), TabStore vs raw libpq",
                        unit: .perSecond, tabstore: rates.store, peer: rates.raw, peerName: "raw", target: load.target(clients: clients)
                    ))
                }
            }
            rows.append(try idleWatchers(server, url: url, stores: Array(stores.prefix(4))))
        } catch {
            rows = Self.missingRows(because: "failed: \(error)")
        }
        return rows
    }

    static func missingRows(because note: String) -> [Row] {
        Load.allCases.flatMap { load in
            clients.map { count in
                Row.missing(
                    "fleet" + load.rawValue.prefix(1).uppercased() + load.rawValue.dropFirst() + "\(count)",
                    "fleet on one PostgreSQL server: \(load.rawValue), \(count) client(s), TabStore vs raw libpq",
                    unit: .perSecond, target: load.target(clients: count), because: note
                )
            }
        } + [.missing(idleKey, idleFigure, unit: .perSecond, target: .ratio(atLeast: 0.9), because: note)]
    }

    /// How long each side of each measurement runs.
    private var seconds: Double { size.pick(1.5, quick: 0.6) }

    /// Operations per second of `clients` threads, each on its own store and set, then of
    /// as many raw clients; the better of two rounds a side, the sides taking turns.
    private func measure(_ load: Load, clients: Int, stores: [TabStore], raws: [RawPostgresTabStore]) throws -> PairedRates {
        var store = 0.0, raw = 0.0
        let raws = OnePerThread(raws)
        for round in 0..<2 {
            let sides: [Bool] = round == 0 ? [true, false] : [false, true]
            for isStore in sides {
                let rate = try Self.rate(clients: clients, seconds: seconds) { client, step in
                    let set = "fleet \(client)"
                    let reads = load == .mixed ? step % 5 != 0 : load == .restore
                    if isStore {
                        if reads { _ = try stores[client].selectedTab(in: set) } else { _ = try stores[client].select(.index(step % 2), in: set) }
                    } else {
                        if reads { _ = try raws.value[client].restore(set) } else { try raws.value[client].select(position: step % 2, in: set) }
                    }
                }
                if isStore { store = max(store, rate) } else { raw = max(raw, rate) }
            }
        }
        return PairedRates(store: store, raw: raw)
    }

    /// Steps per second of `clients` threads doing `step` for `seconds`, all started together.
    static func rate(clients: Int, seconds: Double, _ step: @escaping @Sendable (_ client: Int, _ step: Int) throws -> Void) throws -> Double {
        let done = Mutex<(steps: Int, failure: String?)>((0, nil))
        let start = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        let stop = Atomic<Bool>(false)
        for client in 0..<clients {
            group.enter()
            Thread {
                start.wait()
                var steps = 0
                do {
                    while !stop.load(ordering: .relaxed) {
                        try step(client, steps)
                        steps += 1
                    }
                } catch {
                    done.withLock { $0.failure = $0.failure ?? "\(error)" }
                }
                done.withLock { $0.steps += steps }
                group.leave()
            }.start()
        }
        let began = monotonicNanoseconds()
        for _ in 0..<clients { start.signal() }
        usleep(useconds_t(seconds * 1_000_000))
        stop.store(true, ordering: .relaxed)
        group.wait()
        let elapsed = Double(monotonicNanoseconds() - began) / 1e9
        let result = done.withLock { $0 }
        if let failure = result.failure { throw BenchError("a fleet client failed: \(failure)") }
        return Double(result.steps) / elapsed
    }

    private static let idleKey = "fleetIdleWatchers"
    private static let idleFigure = "fleet: 4 clients' selects with 64 idle watchers of other sets vs none"

    /// Four writers' selects per second with 64 watchers of sets nobody writes (each its own
    /// store, listening on its own connection) against none: the better of two rounds each.
    private func idleWatchers(_ server: PostgresServer, url: String, stores: [TabStore]) throws -> Row {
        progress("fleet: 4 writers with and without \(Self.watchers) idle watchers")
        let writers = stores.count
        func writes() throws -> Double {
            try Self.rate(clients: writers, seconds: seconds) { client, step in
                _ = try stores[client].select(.index(step % 2), in: "fleet \(client)")
            }
        }
        var alone = try writes()
        var watched = 0.0
        do {
            let watching = try (0..<Self.watchers).map { _ in try TabStore(postgresURL: url) }
            let streams = watching.enumerated().map { number, store in store.changes(in: "idle \(number)") }
            // Measured once every watcher holds its watch lock (a session share lock on one
            // bigint key, taken after LISTEN on its own connection).
            let database = String(url.split(separator: "/").last ?? "")
            let listening = """
                SELECT count(DISTINCT pid) FROM pg_locks WHERE locktype = 'advisory' AND mode = 'ShareLock' AND objsubid = 1
                AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                """
            let deadline = monotonicNanoseconds() + 30_000_000_000
            while monotonicNanoseconds() < deadline, (try? server.psql(database, listening)) != "\(Self.watchers)\n" { usleep(20_000) }
            watched = max(try writes(), try writes())
            withExtendedLifetime((watching, streams)) {}
        }
        alone = max(alone, try writes())
        return Row(Self.idleKey, Self.idleFigure, unit: .perSecond, tabstore: watched, peer: alone, peerName: "none", target: .ratio(atLeast: 0.9))
    }

}

/// Raw clients, each used by one thread at a time only (a connection serializes nothing).
private struct OnePerThread<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
