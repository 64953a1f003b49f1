import Testing
import TabStoreKit
import TabStoreTestSupport
@testable import TabStorePostgres

/// One libpq connection against a throwaway server: statements, pipelines, failures,
/// notifications.
@Suite(.enabled(if: PostgresServer.shouldRun, Comment(rawValue: PostgresServer.skipReason)))
struct PostgresConnectionTests {
    let server: PostgresServer
    let url: String
    let connection: PostgresConnection

    init() throws {
        server = try PostgresServer.shared()
        url = try server.createDatabase()
        connection = try PostgresConnection(url: url)
    }

    @Test func executeTakesTextParametersAndNullsAndReturnsText() throws {
        let text = "홈 😀 \"q\" 'x' \\ $1"
        let rows = try connection.execute("SELECT $1::text, $2::text, $3::int + 1, length($1)", [text, nil, "41"])
        #expect(rows.count == 1 && rows.columns == 4)
        #expect(rows.value(0, 0) == text)
        #expect(rows.value(0, 1) == nil && rows.int(0, 1) == nil)
        #expect(rows.int(0, 2) == 42)
        #expect(rows.int(0, 3) == 16)
        _ = try connection.execute("CREATE TABLE t (id int PRIMARY KEY, name text)")
        let inserted = try connection.execute("INSERT INTO t VALUES ($1, $2), ($3, $4)", ["1", "a", "2", nil])
        #expect(inserted.affectedRows == 2 && inserted.count == 0)
        let selected = try connection.execute("SELECT id, name FROM t ORDER BY id")
        #expect(selected.count == 2 && selected.affectedRows == 2)
        #expect([selected.int(0, 0), selected.int(1, 0)] == [1, 2])
        #expect([selected.value(0, 1), selected.value(1, 1)] == ["a", nil])
        #expect(connection.server == url)
    }

    @Test func statementsArePreparedOnceAndEachCallIsOneRoundTrip() throws {
        let start = connection.roundTrips
        for number in 1...3 {
            #expect(try connection.execute("SELECT $1::int * 2", [String(number)]).int(0, 0) == number * 2)
        }
        #expect(connection.roundTrips == start + 3)
        let prepared = try connection.execute("SELECT statement FROM pg_prepared_statements WHERE statement LIKE 'SELECT $1::int%'")
        #expect(prepared.count == 1 && prepared.value(0, 0) == "SELECT $1::int * 2")
    }

    @Test func aPipelineReturnsEveryResultInOrderInOneRoundTrip() throws {
        _ = try connection.execute("CREATE TABLE t (id serial PRIMARY KEY, name text)")
        let statements = [
            PostgresStatement("BEGIN"),
            PostgresStatement("INSERT INTO t (name) VALUES ($1)", ["a"]),
            PostgresStatement("INSERT INTO t (name) VALUES ($1) RETURNING id", ["b"]),
            PostgresStatement("INSERT INTO t (name) VALUES ($1)", ["c"]),
            PostgresStatement("SELECT name FROM t ORDER BY id"),
            PostgresStatement("COMMIT"),
        ]
        for round in 0..<2 {
            let start = connection.roundTrips
            let results = try connection.pipeline(statements)
            #expect(connection.roundTrips == start + 1)
            #expect(results.count == 6)
            #expect(results[1].affectedRows == 1 && results[1].count == 0)
            #expect(results[2].int(0, 0) == round * 3 + 2)
            #expect(results[4].count == 3 * (round + 1))
            #expect((0..<results[4].count).map { results[4].value($0, 0) } == Array(repeating: ["a", "b", "c"], count: round + 1).flatMap { $0 })
        }
        #expect(try connection.pipeline([]) == [])
    }

    @Test func aFailingStatementInAPipelineThrowsItsErrorAndLeavesTheConnectionUsable() throws {
        _ = try connection.execute("CREATE TABLE t (id int PRIMARY KEY)")
        _ = try connection.execute("INSERT INTO t VALUES (1)")
        let failure = thrownError { () throws(PostgresFailure) in
            _ = try connection.pipeline([
                PostgresStatement("BEGIN"),
                PostgresStatement("INSERT INTO t VALUES ($1)", ["2"]),
                PostgresStatement("INSERT INTO t VALUES ($1)", ["1"]),
                PostgresStatement("INSERT INTO t VALUES ($1)", ["3"]),
                PostgresStatement("COMMIT"),
            ])
        }
        let expected = PostgresFailure(.server(sqlState: "23505", message: "duplicate key value violates unique constraint \"t_pkey\"", constraint: "t_pkey"),
                                       sql: "INSERT INTO t VALUES ($1)")
        #expect(failure == expected)
        #expect(failure?.isRetryable == false)
        #expect(failure?.storeError(server: connection.server, outcomeUnknown: false)
            == TabStoreError(.server(server: connection.server, sqlState: "23505", message: "duplicate key value violates unique constraint \"t_pkey\"",
                       sql: "INSERT INTO t VALUES ($1)")))
        #expect(!connection.isBroken)
        // The transaction is aborted, not committed: the caller rolls it back.
        let aborted = thrownError { () throws(PostgresFailure) in _ = try connection.execute("SELECT 1") }
        if case let .server(sqlState, _, _) = aborted?.kind { #expect(sqlState == "25P02") } else { Issue.record("\(String(describing: aborted))") }
        _ = try connection.execute("ROLLBACK")
        let rows = try connection.execute("SELECT id FROM t ORDER BY id")
        #expect(rows.count == 1 && rows.int(0, 0) == 1)
    }

    @Test func aStatementThatFailsToPrepareIsNotCachedAndReportsItsSQL() throws {
        let sql = "SELEC 1"
        for _ in 0..<2 {
            let failure = thrownError { () throws(PostgresFailure) in _ = try connection.execute(sql) }
            #expect(failure == PostgresFailure(.server(sqlState: "42601", message: "syntax error at or near \"SELEC\"", constraint: nil), sql: sql))
        }
        #expect(try connection.execute("SELECT 1").int(0, 0) == 1)
        // In the middle of a pipeline: the statements after it were never prepared, and
        // are prepared when next used.
        let middle = thrownError { () throws(PostgresFailure) in
            _ = try connection.pipeline([PostgresStatement("SELECT 10"), PostgresStatement(sql), PostgresStatement("SELECT 30")])
        }
        #expect(middle == PostgresFailure(.server(sqlState: "42601", message: "syntax error at or near \"SELEC\"", constraint: nil), sql: sql))
        let results = try connection.pipeline([PostgresStatement("SELECT 30"), PostgresStatement("SELECT 10")])
        #expect(results.map { $0.int(0, 0) } == [30, 10])
    }

    @Test func textWithANulCharacterIsRefusedAsTheServerWouldNotCut() throws {
        let failure = thrownError { () throws(PostgresFailure) in _ = try connection.execute("SELECT $1::text", ["a\u{0}b"]) }
        #expect(failure == PostgresFailure(.server(sqlState: "22021", message: "invalid byte sequence for encoding \"UTF8\": 0x00", constraint: nil),
                                           sql: "SELECT $1::text"))
        #expect(try connection.execute("SELECT 2").int(0, 0) == 2)
    }

    @Test func retryableFailuresAreSerializationFailuresAndDeadlocks() {
        for (state, retryable) in [("40001", true), ("40P01", true), ("23505", false), ("57P01", false)] {
            #expect(PostgresFailure(.server(sqlState: state, message: "m", constraint: nil), sql: nil).isRetryable == retryable)
        }
        #expect(!PostgresFailure(.connectionBroken(message: "gone"), sql: nil).isRetryable)
    }

    @Test func notificationsReachAListeningConnection() throws {
        try connection.listen("tab \"events\"")
        #expect(try connection.waitForNotifications(timeout: 0) == [])
        let notifier = try PostgresConnection(url: url)
        _ = try notifier.execute("SELECT pg_notify($1, $2)", ["tab \"events\"", "first"])
        _ = try notifier.execute("SELECT pg_notify($1, $2)", ["other", "not for us"])
        _ = try notifier.execute("SELECT pg_notify($1, $2)", ["tab \"events\"", "second"])
        var payloads: [String] = []
        for _ in 0..<100 where payloads.count < 2 {
            payloads += try connection.waitForNotifications(timeout: 10_000)
        }
        #expect(payloads == ["first", "second"])
        #expect(connection.socket >= 0)
    }

    @Test func aTerminatedBackendIsABrokenConnection() throws {
        let other = try PostgresConnection(url: url)
        // The timeout makes the call wait until the backend is gone.
        #expect(try other.execute("SELECT pg_terminate_backend($1, 10000)", [String(connection.processID)]).value(0, 0) == "t")
        let failure = thrownError { () throws(PostgresFailure) in _ = try connection.execute("SELECT 1") }
        guard case .connectionBroken = failure?.kind else {
            Issue.record("expected a broken connection, got \(String(describing: failure))")
            return
        }
        #expect(connection.isBroken)
        #expect(failure?.storeError(server: connection.server, outcomeUnknown: true) == TabStoreError(.connectionLost(server: connection.server, outcomeUnknown: true)))
        // Every later call fails the same way, notifications too.
        let again = thrownError { () throws(PostgresFailure) in _ = try connection.pipeline([PostgresStatement("SELECT 1")]) }
        if case .connectionBroken = again?.kind {} else { Issue.record("\(String(describing: again))") }
        let waiting = thrownError { () throws(PostgresFailure) in _ = try connection.waitForNotifications(timeout: 0) }
        if case .connectionBroken = waiting?.kind {} else { Issue.record("\(String(describing: waiting))") }
        connection.close()
        #expect(connection.socket == -1)
        let closed = thrownError { () throws(PostgresFailure) in _ = try connection.execute("SELECT 1") }
        #expect(closed == PostgresFailure(.connectionBroken(message: "the connection was closed"), sql: nil))
    }

    @Test func aRefusedLoginOrUnknownDatabaseIsServerUnavailableWithoutThePassword() throws {
        let user = PostgresServer.passwordUser
        let port = server.port
        let ok = try PostgresConnection(url: server.url(database: "postgres", user: user, password: PostgresServer.password))
        #expect(ok.server == "postgresql://\(user)@127.0.0.1:\(port)/postgres")
        let wrong = server.url(database: "postgres", user: user, password: "wrong-secret")
        let refused = thrownError { () throws(TabStoreError) in _ = try PostgresConnection(url: wrong) }
        #expect(refused == TabStoreError(.serverUnavailable(server: "postgresql://\(user)@127.0.0.1:\(port)/postgres",
                                              reason: "connection to server at \"127.0.0.1\", port \(port) failed: FATAL:  password authentication failed for user \"\(user)\"")))
        let unknown = thrownError { () throws(TabStoreError) in _ = try PostgresConnection(url: server.url(database: "nope", password: "wrong-secret")) }
        #expect(unknown == TabStoreError(.serverUnavailable(server: "postgresql://postgres@127.0.0.1:\(port)/nope",
                                              reason: "connection to server at \"127.0.0.1\", port \(port) failed: FATAL:  database \"nope\" does not exist")))
        for error in [refused, unknown] { #expect(error?.description.contains("wrong-secret") == false) }
    }

    @Test func nothingListeningIsServerUnavailable() throws {
        let port = try ClosedPort()
        let error = thrownError { () throws(TabStoreError) in
            _ = try PostgresConnection(url: "postgresql://someone:hunter2@127.0.0.1:\(port.number)/db?password=hunter3")
        }
        #expect(error == TabStoreError(.serverUnavailable(server: "postgresql://someone@127.0.0.1:\(port.number)/db",
                                            reason: "connection to server at \"127.0.0.1\", port \(port.number) failed: Connection refused")))
        #expect(error?.description == "cannot connect to postgresql://someone@127.0.0.1:\(port.number)/db: connection to server at \"127.0.0.1\", port \(port.number) failed: Connection refused")
    }

    @Test func aUnixSocketServerIsNamedByItsFolder() throws {
        let viaSocket = try PostgresConnection(url: "postgresql:///postgres?host=\(server.folder)&port=\(server.port)&user=postgres")
        let encodedFolder = server.folder.replacing("/", with: "%2F")
        #expect(viaSocket.server == "postgresql://postgres@\(encodedFolder):\(server.port)/postgres")
        #expect(try viaSocket.execute("SELECT current_setting('application_name')").value(0, 0) == "tabstore")
        let named = try PostgresConnection(url: "postgresql:///postgres?host=\(server.folder)&port=\(server.port)&user=postgres&application_name=mine")
        #expect(try named.execute("SELECT current_setting('application_name')").value(0, 0) == "mine")
    }
}
