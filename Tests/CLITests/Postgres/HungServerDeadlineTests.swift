import Foundation
import TabStorePostgres
import TabStoreTestSupport
import Testing

/// A command waiting on a server that hangs (every process stopped, its kernel still
/// acknowledging) ends at its request's deadline, the busy timeout and the server timeout,
/// however long the failover window: it does not connect again to a server that stopped
/// answering, and says how long it waited.
@Suite(.enabled(if: PostgresServer.shouldRun, Comment(rawValue: PostgresServer.skipReason)), .timeLimit(.minutes(5)))
struct HungServerDeadlineTests {
    /// Once: with a failover window, the select connected again after the deadline, each
    /// try waiting out its connect timeout, until the window closed.
    @Test func aSelectWaitingOnAHungServerEndsAtItsDeadline() throws {
        let server = try ServerSandbox(ownServer: ())
        server.succeed("add", "s", "a", "b")
        // Another client's unfinished write holds the set: the select waits for its lock.
        let holder = try PostgresConnection(url: server.url, session: PostgresSession(idleInTransactionTimeout: .zero))
        _ = try holder.execute("BEGIN")
        _ = try holder.execute(PostgresLock.names, [holder.schema, "{\"s\"}"])
        // The busy timeout (5 s) and the server timeout (1 s): 6 s. Connecting again through
        // the 10 s window, 2 s per try, would end it past 16 s.
        let environment = ["TABSTORE_SERVER_TIMEOUT": "1", "TABSTORE_FAILOVER_WINDOW": "10"]
        let select = try RunningTabstore(server.sandbox, ["select", "s", "b"], database: server.url, environment: environment)
        #expect(RunningTabstore.poll {
            (try? server.psql("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")) == "1\n"
        })
        server.server.pause()
        defer { server.server.resume() }
        let paused = ContinuousClock.now
        let exit = select.exit(timeout: .seconds(60))
        let waited = ContinuousClock.now - paused
        server.server.resume()
        #expect(exit?.status == 3 && exit?.bySignal == false)
        // A guard, not a timing: far below what connecting again would take.
        #expect(waited < .seconds(6 + 4), "waited \(waited)")
        #expect(select.stderr == "tabstore: error: \(server.url) stopped answering after 6 s; nothing was changed\n")
        _ = try holder.execute("ROLLBACK")
        #expect(server.run("list", "s") == .ok("* 0  a\n  1  b\n"))
    }
}
