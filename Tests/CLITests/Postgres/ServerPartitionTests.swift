import Foundation
import TabStoreTestSupport
import TabStorePostgres
import Testing

/// A throwaway server reached through a network link a test can cut, with a fresh database.
private struct ServerBehindLink {
    let link: NetworkLink
    let server: PostgresServer
    let url: String
    var database: String { String(url.split(separator: "/").last!) }

    init() throws {
        link = try NetworkLink()
        do {
            server = try PostgresServer.start(behind: link)
        } catch {
            link.destroy()
            throw error
        }
        do {
            url = try server.createDatabase()
        } catch {
            server.destroy()
            link.destroy()
            throw error
        }
    }

    /// The server first: it runs in the link's namespace.
    func destroy() {
        server.destroy()
        link.destroy()
    }
}

/// A server that hangs, or a network link that is cut, while a command waits for it: the
/// command gives up after its deadline with a true message, and a client cut off while it
/// holds a set's lock stops holding it within seconds.
@Suite(.enabled(if: PostgresServer.shouldRun && NetworkLink.unavailableReason == nil,
                Comment(rawValue: NetworkLink.unavailableReason ?? PostgresServer.skipReason)))
struct ServerPartitionTests {
    /// Quick deadlines, and a command that tries once.
    static let impatient = ["TABSTORE_SERVER_TIMEOUT": "1", "TABSTORE_FAILOVER_WINDOW": "0"]

    /// The server's own sessions waiting for a lock now.
    private func waitingForALock(_ server: PostgresServer, _ database: String) -> Bool {
        (try? server.psql(database, "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")) == "1\n"
    }

    /// `url` with its host a unix socket folder: how a test reaches a server whatever link it is behind.
    private func socketURL(_ server: PostgresServer, _ database: String) -> String {
        "postgresql:///\(database)?host=\(server.folder)&port=\(server.port)&user=postgres"
    }

    /// A set's lock held by another session, as another client's unfinished write holds
    /// it: one that keeps it (no idle timeout), or with tabstore's own settings.
    private func lockingSet(_ name: String, on url: String, keeping: Bool = true) throws -> PostgresConnection {
        let holder = try PostgresConnection(url: url, session: keeping ? PostgresSession(idleInTransactionTimeout: .zero) : PostgresSession())
        _ = try holder.execute("BEGIN")
        _ = try holder.execute(PostgresLock.names, [holder.schema, "{\"\(name)\"}"])
        return holder
    }

    /// Once: "still locked by another process after the busy timeout", 30 s later, from a
    /// server that was not answering at all.
    @Test func aHungServerIsSaidToHaveStoppedAnsweringAndNothingChanged() throws {
        let server = try ServerSandbox(ownServer: ())
        server.succeed("add", "s", "a")
        let holder = try lockingSet("s", on: server.url)
        let add = try RunningTabstore(server.sandbox, ["add", "s", "b"], database: server.url, environment: Self.impatient)
        #expect(RunningTabstore.poll { waitingForALock(server.server, server.databaseName) })
        server.server.pause()
        defer { server.server.resume() }
        let exit = add.exit(timeout: .seconds(30))
        server.server.resume()
        #expect(exit?.status == 3)
        // The busy timeout (5 s) and the server timeout (1 s).
        #expect(add.stderr == "tabstore: error: \(server.url) stopped answering after 6 s; nothing was changed\n")
        _ = try holder.execute("ROLLBACK")
        #expect(server.run("list", "s") == .ok("* 0  a\n"))
    }

    /// Once: a command waiting when the link was cut waited forever.
    @Test func aCutLinkEndsAWaitingCommandWithNothingChanged() throws {
        let behind = try ServerBehindLink()
        defer { behind.destroy() }
        let (link, server, url, database) = (behind.link, behind.server, behind.url, behind.database)
        let sandbox = Sandbox()
        #expect(sandbox.runWithoutDatabase(["--db", url, "add", "s", "a"]) == .ok("added 1 tab to s\n"))
        let holder = try lockingSet("s", on: socketURL(server, database))
        let add = try RunningTabstore(sandbox, ["add", "s", "b"], database: url, environment: Self.impatient)
        #expect(RunningTabstore.poll { waitingForALock(server, database) })
        try link.cut()
        defer { try? link.restore() }
        let exit = add.exit(timeout: .seconds(30))
        #expect(exit?.status == 3)
        #expect(add.stderr == "tabstore: error: lost the connection to \(url); nothing was changed\n")
        _ = try holder.execute("ROLLBACK")
        try link.restore()
        #expect(sandbox.runWithoutDatabase(["--db", url, "list", "s"]) == .ok("* 0  a\n"))
    }

    /// Once: a client cut off between its lock and its COMMIT kept the set locked until the
    /// link came back, and every other writer failed after the busy timeout.
    @Test func aClientCutOffMidWriteReleasesItsSetWithinSeconds() throws {
        let behind = try ServerBehindLink()
        defer { behind.destroy() }
        let (link, server, url, database) = (behind.link, behind.server, behind.url, behind.database)
        let sandbox = Sandbox()
        let local = socketURL(server, database)
        #expect(sandbox.runWithoutDatabase(["--db", local, "add", "s", "a"]) == .ok("added 1 tab to s\n"))
        // A client with tabstore's own session settings, across the link, between its two round trips.
        let cutOff = try lockingSet("s", on: url, keeping: false)
        try link.cut()
        defer { try? link.restore() }
        #expect(sandbox.runWithoutDatabase(["--db", local, "add", "s", "b"]) == .ok("added 1 tab to s\n"))
        #expect(sandbox.runWithoutDatabase(["--db", local, "list", "s"]) == .ok("* 0  a\n  1  b\n"))
        cutOff.close()
    }
}
