import Testing
import TabStoreKit
@testable import TabStorePostgres

/// What a connection sends when it connects, and how libpq's words for a failed
/// connection are read: without a server.
@Suite struct PostgresSessionTests {
    @Test(arguments: [
        ("-c search_path=tabs", "tabs"),
        ("-csearch_path=Tabs,public", "tabs"),
        ("--search-path=\"Tabs\",public", "Tabs"),
        (#"-c search_path="My\ Tabs",public"#, "My Tabs"),
        (#"-c search_path="a""b""#, #"a"b"#),
        ("-c search_path=first -c search_path=second", "second"),
        ("-c statement_timeout=5", nil),
        ("-c search_path=", nil),
    ] as [(String, String?)])
    func theSchemaIsTheFirstOfTheLastSearchPathInOptions(options: String, schema: String?) {
        #expect(StartupOptions.firstSchema(options) == schema)
    }

    @Test func theServerSettingsFollowTheURLsOwnOptionsEscaped() {
        let session = PostgresSession(lockTimeout: .milliseconds(1500), synchronousCommit: false)
        #expect(session.serverOptions(after: "-c work_mem=64MB", schema: "My \"Tabs\"") == #"""
            -c work_mem=64MB -c lock_timeout=1500ms -c synchronous_commit=off -c idle_in_transaction_session_timeout=2000ms -c search_path="My\ ""Tabs"""
            """#)
        // A setting the URL makes is not overridden by tabstore's default for it.
        #expect(PostgresSession().serverOptions(after: "-clock_timeout=500 --synchronous-commit=off", schema: "public")
            == #"-clock_timeout=500 --synchronous-commit=off -c idle_in_transaction_session_timeout=2000ms -c search_path="public""#)
        #expect(PostgresSession().serverOptions(after: nil, schema: "public")
            == #"-c lock_timeout=5000ms -c synchronous_commit=on -c idle_in_transaction_session_timeout=2000ms -c search_path="public""#)
    }

    @Test func libpqsParagraphsBecomeOneLineWithEachServersReason() {
        let message = """
            connection to server at "10.0.0.1", port 5432 failed: Connection refused
            \tIs the server running on that host and accepting TCP/IP connections?
            connection to server at "10.0.0.2", port 5432 failed: session is read-only

            """
        let reason = ConnectFailure.reasons(message)
        #expect(reason == #"connection to server at "10.0.0.1", port 5432 failed: Connection refused; connection to server at "10.0.0.2", port 5432 failed: session is read-only"#)
        #expect(ConnectFailure.kind(of: reason) == .transient)
        #expect(ConnectFailure.reasons("invalid sslmode value: \"bogus\"\n") == "invalid sslmode value: \"bogus\"")
    }

    @Test(arguments: [
        (#"connection to server at "h", port 1 failed: FATAL:  database "x" does not exist"#, ConnectFailure.Kind.permanent),
        (#"connection to server at "h", port 1 failed: FATAL:  password authentication failed for user "u""#, .permanent),
        (#"connection to server at "h", port 1 failed: FATAL:  the database system is starting up"#, .transient),
        (#"connection to server at "h", port 1 failed: timeout expired"#, .transient),
        (#"connection to server at "h", port 1 failed: FATAL:  database "x" does not exist; connection to server at "i", port 1 failed: Connection refused"#, .transient),
        (#"could not translate host name "h" to address: Name or service not known"#, .unknown),
    ] as [(String, ConnectFailure.Kind)])
    func aFailedConnectionIsTransientOnlyWhenAServerMayBeBack(reason: String, kind: ConnectFailure.Kind) {
        #expect(ConnectFailure.kind(of: reason) == kind)
    }

    @Test func everySQLStateTabstoreReadsHasItsMeaning() {
        var context = PostgresFailureContext(server: "postgresql://u@h:5432/d")
        context.role = "u"
        let meaning = { (state: String, constraint: String?) in SQLState.meaning(state, constraint: constraint, in: context) }
        #expect(meaning("40001", nil).retry == .now && meaning("40P01", nil).retry == .now)
        #expect(meaning("23505", PostgresConstraint.setNameUnique).retry == .now && meaning("23505", "t_pkey").retry == .never)
        #expect(meaning("55P03", nil).error == TabStoreError(.busy(path: context.server)))
        #expect(meaning("25006", nil) == (TabStoreError(.readOnly(path: context.server)), .never))
        context.isStandby = true
        context.isMultiHost = true
        #expect(meaning("25006", nil) == (TabStoreError(.standby(server: context.server)), .reconnect))
        #expect(meaning("42501", nil).error == TabStoreError(.permissionDenied(server: context.server, role: "u", privilege: "", object: "")))
        #expect(meaning("57P01", nil) == (TabStoreError(.connectionLost(server: context.server, outcomeUnknown: false)), .reconnect))
        context.outcomeUnknown = true
        #expect(meaning("57P01", nil) == (TabStoreError(.connectionLost(server: context.server, outcomeUnknown: true)), .settle))
        // A standby's refusal is an answer: the write's COMMIT, sent with it, did not commit.
        #expect(meaning("25006", nil).retry == .reconnect)
        #expect(meaning("XX000", nil) == (nil, .never))
    }
}
