import Foundation
import TabStoreKit
import TabStorePostgres
import TabStoreTestSupport

/// The PostgreSQL backend on a throwaway loopback server the group starts itself: `select`
/// against the raw libpq loop sending the same statements, and the round trips each edit
/// costs (on a network, round trips are the price).
struct PostgresGroup {
    let size: BenchSize

    private static let throughputKey = "postgresSelectVsRawLibpq"
    private static let throughputFigure = "select on PostgreSQL (loopback): TabStore vs raw libpq pipelines"
    /// The edits whose round trips are counted, with their bound: two for a write (lock and
    /// read; write and commit), one for a read.
    private static let failoverKey = "postgresFailoverToFirstWrite"
    private static let failoverFigure = "failover: the primary's death to the first acknowledged write on its promoted standby"
    private static let processKey = "postgresSelectProcessRoundTrips"
    private static let processFigure = "round trips of one `tabstore select` process on PostgreSQL (the connection counted once)"
    private static let edits: [(name: String, bound: Double)] = [
        ("select", 2), ("add", 2), ("move", 2), ("remove", 2), ("rename", 2), ("reopen", 2), ("restore", 1),
    ]

    func run() -> [Row] {
        guard PostgresServer.isAvailable else {
            return Self.missingRows(
                because: "PostgreSQL is not installed here (no /usr/lib/postgresql/*/bin/initdb; apt-get install postgresql)"
            )
        }
        let server: PostgresServer
        do {
            progress("postgres: starting a throwaway server")
            server = try PostgresServer.start()
        } catch {
            return Self.missingRows(because: "\(error)")
        }
        defer { server.destroy() }
        var rows: [Row]
        do {
            rows = [try throughput(server)]
        } catch {
            rows = [.missing(Self.throughputKey, Self.throughputFigure, unit: .perSecond, target: .ratio(atLeast: 0.8), because: "failed: \(error)")]
        }
        do {
            rows += try roundTrips(server)
        } catch {
            rows += Self.missingRoundTrips(because: "failed: \(error)")
        }
        do {
            rows.append(try processRoundTrips(server))
        } catch {
            rows.append(.missing(Self.processKey, Self.processFigure, unit: .roundTrips, target: .value(atMost: 4), because: "failed: \(error)"))
        }
        do {
            rows.append(try failover())
        } catch {
            rows.append(.missing(Self.failoverKey, Self.failoverFigure, unit: .milliseconds, target: .value(atMost: 3000), because: "failed: \(error)"))
        }
        return rows
    }

    static func missingRows(because note: String) -> [Row] {
        [.missing(throughputKey, throughputFigure, unit: .perSecond, target: .ratio(atLeast: 0.8), because: note)]
            + missingRoundTrips(because: note)
            + [.missing(processKey, processFigure, unit: .roundTrips, target: .value(atMost: 4), because: note),
               .missing(failoverKey, failoverFigure, unit: .milliseconds, target: .value(atMost: 3000), because: note)]
    }

    private static func missingRoundTrips(because note: String) -> [Row] {
        edits.map { edit in
            .missing(roundTripKey(edit.name), roundTripFigure(edit.name), unit: .roundTrips, target: .value(atMost: edit.bound), because: note)
        }
    }

    private static func roundTripKey(_ edit: String) -> String { "postgresRoundTrips" + edit.prefix(1).uppercased() + edit.dropFirst() }
    private static func roundTripFigure(_ edit: String) -> String {
        edit == "restore" ? "round trips on PostgreSQL: restore (selectedTab)" : "round trips on PostgreSQL: \(edit)"
    }

    // MARK: select throughput

    /// Selections per second through the store and through the raw loop, each on its own
    /// database holding the same set: the pair of rounds with the median ratio, the sides
    /// taking turns in each round (`pairedRates`).
    private func throughput(_ server: PostgresServer) throws -> Row {
        progress("postgres: select throughput, TabStore vs raw libpq")
        let store = try TabStore(postgresURL: try server.createDatabase())
        try store.add(Fixture.titles(10), to: Fixture.setName, creatingSet: true)
        let rawURL = try server.createDatabase()
        // The same schema and set, made by the library, before the raw loop takes over.
        try TabStore(postgresURL: rawURL).add(Fixture.titles(10), to: Fixture.setName, creatingSet: true)
        let raw = try RawPostgresTabStore(url: rawURL)

        let operations = size.pick(2_000, quick: 800)
        let loops = LoopPair(
            store: { try storeSelections(store, $0) },
            raw: { range in
                for operation in range {
                    try raw.select(position: (operation + 1) % 2, in: Fixture.setName)
                }
            }
        )
        // Blocks of 50: each select is a round trip to the server, so few fit in a block.
        let rates = try pairedRates(pairs: 3, operations: operations, block: 50, loops)
        // The raw loop's rows must be what the library writes: its journal reads back as selections.
        let check = try TabStore(postgresURL: rawURL)
        guard case .selectionChanged(let updates)? = try check.history(of: Fixture.setName, limit: 1).first?.event,
              updates.count == 2, updates.allSatisfy({ $0.tab.id != .unknown }),
              try check.selectedTab(in: Fixture.setName).index == 0 else {
            throw BenchError("the raw libpq loop's journal rows do not read back as selections")
        }
        return Row(
            Self.throughputKey, Self.throughputFigure, unit: .perSecond, tabstore: rates.store,
            peer: rates.raw, peerName: "raw", target: .ratio(atLeast: 0.8)
        )
    }

    // MARK: round trips

    /// The round trips of each edit on a warm store (connections made, statements
    /// prepared): the most any of several repetitions took.
    private func roundTrips(_ server: PostgresServer) throws -> [Row] {
        progress("postgres: round trips per edit")
        let store = try TabStore(postgresURL: try server.createDatabase())
        try store.add(Fixture.titles(10), to: Fixture.setName, creatingSet: true)
        let set = Fixture.setName
        var most: [String: Int] = [:]
        func count(_ edit: String, repetition: Int, _ body: () throws -> Void) throws {
            guard let before = store.postgresRoundTrips else { throw BenchError("not a PostgreSQL store") }
            try body()
            let trips = (store.postgresRoundTrips ?? 0) - before
            // The first repetition makes the reader's connection and prepares statements.
            if repetition > 0 { most[edit] = max(most[edit] ?? 0, trips) }
        }
        for repetition in 0..<4 {
            // Every edit is a real change; the set ends each repetition one tab longer.
            let title = "Extra \(repetition)"
            let renamed = "Renamed \(repetition)"
            try count("select", repetition: repetition) { try store.select(.index((repetition + 1) % 2), in: set) }
            try count("add", repetition: repetition) { try store.add([title], to: set) }
            try count("move", repetition: repetition) { try store.move(.title(title), to: 0, in: set) }
            try count("rename", repetition: repetition) { try store.rename(.title(title), to: renamed, in: set) }
            try count("remove", repetition: repetition) { try store.remove([.title(renamed)], from: set) }
            try count("reopen", repetition: repetition) { try store.reopen(in: set) }
            try count("restore", repetition: repetition) { _ = try store.selectedTab(in: set) }
        }
        return Self.edits.map { edit in
            Row(
                Self.roundTripKey(edit.name), Self.roundTripFigure(edit.name), unit: .roundTrips,
                tabstore: most[edit.name].map(Double.init), ratio: .none, target: .value(atMost: edit.bound)
            )
        }
    }

    // MARK: one process, and a failover

    /// The waits for the server of the built `tabstore select` on a set, counted from its
    /// system calls (strace), over the server's unix socket: the connection's one exchange,
    /// the schema check with the version, and the edit's two. Over TCP libpq adds one, to
    /// ask whether the server speaks TLS.
    private func processRoundTrips(_ server: PostgresServer) throws -> Row {
        progress("postgres: round trips of one tabstore select process")
        let tabstore = executableFolder() + "/tabstore"
        guard access(tabstore, X_OK) == 0 else {
            return .missing(Self.processKey, Self.processFigure, unit: .roundTrips, target: .value(atMost: 4),
                            because: "no tabstore binary next to the bench: run `swift build -c release` first")
        }
        guard RoundTripTrace.isAvailable else {
            return .missing(Self.processKey, Self.processFigure, unit: .roundTrips, target: .value(atMost: 4),
                            because: "strace is not installed (apt-get install strace)")
        }
        let url = try server.createDatabase()
        let database = String(url.split(separator: "/").last ?? "")
        try TabStore(postgresURL: url).add(Fixture.titles(10), to: Fixture.setName, creatingSet: true)
        let overSocket = "postgresql:///\(database)?host=\(server.folder)&port=\(server.port)&user=postgres"
        let run = try RoundTripTrace.run([tabstore, "--db", overSocket, "select", Fixture.setName, "1"], serverPort: server.port)
        guard run.status == 0 else { throw BenchError("tabstore select exited \(run.status)") }
        return Row(Self.processKey, Self.processFigure, unit: .roundTrips, tabstore: Double(run.roundTrips), ratio: .none,
                   target: .value(atMost: 4))
    }

    /// A primary with a synchronous standby, one store naming both: the primary is killed
    /// (every process), the standby promoted at once, and one select waits out the
    /// failover (its window is long enough for any promotion): from the kill to its return.
    private func failover() throws -> Row {
        progress("postgres: failover, the primary killed and its standby promoted")
        let pair = try ReplicatedPostgres.start()
        defer { pair.destroy() }
        let database = try pair.createDatabase()
        let store = try TabStore(postgresURL: pair.url(database: database), options: .init(failoverWindow: .seconds(60)))
        try store.add(Fixture.titles(10), to: Fixture.setName, creatingSet: true)
        try store.select(.index(1), in: Fixture.setName)
        let death = ContinuousClock.now
        pair.primary.killEveryProcess()
        let promotion = Thread { try? pair.promoteStandby() }
        promotion.start()
        try store.select(.index(0), in: Fixture.setName)
        let elapsed = ContinuousClock.now - death
        while !promotion.isFinished { usleep(10_000) }
        return Row(Self.failoverKey, Self.failoverFigure, unit: .milliseconds, tabstore: Double(elapsed.milliseconds), ratio: .none,
                   target: .value(atMost: 3000), note: "promotion started at once (pg_ctl promote); synchronous_standby_names = '*'")
    }
}
