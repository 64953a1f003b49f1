import Testing
@testable import TabStoreKit
import TabStoreTestSupport
@testable import TabStorePostgres

/// PostgreSQL wakes every listening connection of a database for every notification, so a
/// write notifies only the channels a listener holds the watch lock of, and a watcher that
/// starts while a write of its set runs still gets that write at once.
@Suite(.enabled(if: PostgresServer.shouldRun, Comment(rawValue: PostgresServer.skipReason)))
struct WatchedChannelTests {
    /// The payloads that arrive until none has for 300 ms.
    static func notifications(_ connection: PostgresConnection) throws -> [String] {
        var payloads: [String] = []
        while case let more = try connection.waitForNotifications(timeout: 300), !more.isEmpty { payloads += more }
        return payloads
    }

    @Test func aWriteNotifiesOnlyTheChannelsWhoseWatchLockIsHeld() throws {
        let url = try PostgresServer.shared().createDatabase()
        let store = try TabStore(postgresURL: url)
        try store.add(["a", "b"], to: "watched", creatingSet: true)
        try store.add(["a", "b"], to: "idle", creatingSet: true)
        let listener = try PostgresConnection(url: url)
        let watched = PostgresChannel.ofSet("watched", schema: listener.schema)
        let idle = PostgresChannel.ofSet("idle", schema: listener.schema)
        let every = PostgresChannel.everySet
        try listener.changeListening(from: [], to: [watched, idle, every], registered: [])
        #expect(try listener.register([watched]) == [watched])
        _ = try Self.notifications(listener)
        // Listened to, all three; only the set whose lock is held is notified (payload "").
        try store.select(.index(1), in: "idle")
        try store.select(.index(1), in: "watched")
        #expect(try Self.notifications(listener) == [""])
        // Holding the lock of every set's channel: a write of any set names its set there.
        #expect(try listener.register([every]) == [every])
        try store.select(.index(0), in: "idle")
        #expect(try Self.notifications(listener) == ["idle"])
        // Let go of, as a watcher that stops following every set does: nothing arrives.
        try listener.changeListening(from: [watched, idle, every], to: [watched, idle], registered: [watched, every])
        try store.select(.index(1), in: "idle")
        #expect(try Self.notifications(listener) == [])
        try store.select(.index(0), in: "watched")
        #expect(try Self.notifications(listener) == [""])
    }

    /// A write that found no listener holds its set's watch lock until COMMIT: a watcher
    /// cannot take it before, and reads the journal once it has, so the write reaches it
    /// with no timer (the store polls once an hour here).
    @Test func aWatcherThatStartsDuringAWriteOfItsSetGetsThatWrite() async throws {
        let url = try PostgresServer.shared().createDatabase()
        var options = TabStore.Options()
        options.changePollInterval = .seconds(3600)
        let watcher = try TabStore(postgresURL: url, options: options)
        // A transaction left open for as long as the watcher takes to start.
        let writer = try PostgresConnection(url: url, session: PostgresSession(idleInTransactionTimeout: .zero))
        let channel = PostgresChannel.ofSet("gone", schema: writer.schema)
        let key = String(PostgresChannel.watchKey(channel, schema: writer.schema))
        _ = try writer.pipeline([
            PostgresStatement("BEGIN"),
            PostgresStatement(PostgresLock.names, [writer.schema, "{gone}"]),
            PostgresStatement(PostgresChannel.notifyWatched, ["{\(channel)}", "{\"\"}", "{\(key)}"]),
            PostgresStatement("INSERT INTO change (set_name, revision, kind, at) VALUES ('gone', 7, 'set-removed', 0)"),
        ])
        let seen = ConcurrentWritersTests.Collector(watcher.changes(in: "gone"))
        // Its listener has tried the lock, which the write holds, at least once.
        let observer = try PostgresConnection(url: url)
        let trying = "SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%pg_try_advisory_lock_shared%' AND datname = current_database() AND pid <> pg_backend_pid()"
        #expect(try await Self.count(trying, on: observer) == 1)
        _ = try writer.execute("COMMIT")
        #expect(try await seen.waitFor(count: 1).map { $0.setName + " " + ConcurrentWritersTests.entry($0) } == ["gone 7 set-removed"])
        withExtendedLifetime(watcher) {}
    }

    /// An idle watcher asks the server nothing: it reads the journal when notified (and
    /// once every 30 s), so a fleet of idle watchers is no load on the server; a change
    /// still reaches it at once.
    @Test func anIdleWatcherSendsTheServerNothingAndStillGetsAChange() async throws {
        let url = try PostgresServer.shared().createDatabase()
        let writer = try TabStore(postgresURL: url)
        try await writer.write { try $0.add(["a", "b"], to: "quiet", creatingSet: true) }
        let watcher = try TabStore(postgresURL: url)
        let seen = ConcurrentWritersTests.Collector(watcher.changes(in: "quiet"))
        // Listening once its listener holds the set's watch lock; then it reads the journal once.
        let observer = try PostgresConnection(url: url)
        let holding = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND mode = 'ShareLock' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
        #expect(try await Self.count(holding, on: observer) == 1)
        try await waitFor("the watcher's journal read once listening") { watcher.hub.looks >= 1 }
        let before = try #require(watcher.postgresRoundTrips)
        // Idle for a while (the scenario itself): no round trip in it.
        try await Task.sleep(for: .milliseconds(2500))
        #expect(watcher.postgresRoundTrips == before)
        try await writer.write { try $0.select(.index(1), in: "quiet") }
        #expect(try await seen.waitFor(count: 1).map(ConcurrentWritersTests.entry) == ["2 selected"])
        withExtendedLifetime(watcher) {}
    }

    /// What the count `query` answers once it is not 0 (within 30 s), asked on `connection`.
    static func count(_ query: String, on connection: PostgresConnection) async throws -> Int? {
        let deadline = ContinuousClock.now + .seconds(30)
        while try connection.execute(query).int(0, 0) == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        return try connection.execute(query).int(0, 0)
    }
}
