import Testing
import TabStoreKit
import TabStoreTestSupport
@testable import TabStorePostgres

/// The test server itself: separate databases, and a stop and restart that other tests
/// (a server going away under a store) rely on.
@Suite(.enabled(if: PostgresServer.shouldRun, Comment(rawValue: PostgresServer.skipReason)))
struct PostgresServerTests {
    @Test func eachCreatedDatabaseIsNewAndEmpty() throws {
        let server = try PostgresServer.shared()
        let first = try server.createDatabase()
        let second = try server.createDatabase()
        #expect(first != second)
        _ = try PostgresConnection(url: first).execute("CREATE TABLE only_here (id int)")
        let tables = "SELECT count(*) FROM pg_tables WHERE tablename = 'only_here'"
        #expect(try PostgresConnection(url: first).execute(tables).int(0, 0) == 1)
        #expect(try PostgresConnection(url: second).execute(tables).int(0, 0) == 0)
    }

    @Test func aStoppedServerRefusesAndARestartedOneServesOnTheSamePort() throws {
        let server = try PostgresServer.start()
        defer { server.destroy() }
        let url = try server.createDatabase()
        let before = try PostgresConnection(url: url)
        _ = try before.execute("CREATE TABLE kept (id int)")
        server.stop()
        let refused = thrownError { () throws(TabStoreError) in _ = try PostgresConnection(url: url) }
        #expect(refused == TabStoreError(.serverUnavailable(server: "postgresql://postgres@127.0.0.1:\(server.port)/db_1",
                                              reason: "connection to server at \"127.0.0.1\", port \(server.port) failed: Connection refused")))
        try server.restart()
        let lost = thrownError { () throws(PostgresFailure) in _ = try before.execute("SELECT 1") }
        if case .connectionBroken = lost?.kind {} else { Issue.record("expected a broken connection, got \(String(describing: lost))") }
        let after = try PostgresConnection(url: url)
        #expect(try after.execute("SELECT count(*) FROM pg_tables WHERE tablename = 'kept'").int(0, 0) == 1)
    }
}
