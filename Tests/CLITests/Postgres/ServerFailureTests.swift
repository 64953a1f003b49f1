import Foundation
import TabStoreKit
import TabStorePostgres
import TabStoreTestSupport
import Testing

/// Every way reaching a server can fail: the documented exit code and one line that names
/// the server (never its password), and the server's data unchanged.
@Suite(.enabled(if: PostgresServer.shouldRun, Comment(rawValue: PostgresServer.skipReason)))
struct ServerFailureTests {
    @Test func aStoppedServerExits3WithOneLine() throws {
        let server = try ServerSandbox(ownServer: ())
        server.succeed("add", "s", "a")
        server.server.stop()
        let port = server.server.port
        for command in [["list"], ["add", "s", "b"], ["info"], ["watch", "s"]] {
            #expect(server.run(command, environment: ["TABSTORE_FAILOVER_WINDOW": "0"]) == .failure(3, """
                tabstore: error: cannot connect to postgresql://postgres@127.0.0.1:\(port)/db_1: connection to server at "127.0.0.1", port \(port) failed: Connection refused

                """), "\(command)")
        }
        try server.server.restart()
        #expect(server.run("list", "s") == .ok("* 0  a\n"))
    }

    /// A server restarting (or a standby being promoted behind the same address) within the
    /// failover window: the command waits it out and succeeds.
    @Test func aCommandOutlastsAServerRestartWithinItsWindow() throws {
        let server = try ServerSandbox(ownServer: ())
        server.succeed("add", "s", "a")
        server.server.stop()
        let add = try RunningTabstore(server.sandbox, ["add", "s", "b"], database: server.url, environment: ["TABSTORE_FAILOVER_WINDOW": "60"])
        usleep(1_000_000)
        try server.server.restart()
        #expect(add.exit(timeout: .seconds(60))?.status == 0)
        #expect(add.stdout == "added 1 tab to s\n" && add.stderr == "")
        #expect(server.run("list", "s") == .ok("* 0  a\n  1  b\n"))
    }

    @Test(arguments: ["TABSTORE_FAILOVER_WINDOW", "TABSTORE_SERVER_TIMEOUT"])
    func aServerVariableThatIsNotSecondsIsAUsageError(variable: String) throws {
        let server = try ServerSandbox()
        for value in ["abc", "-1", "3601", "1e3", ""] {
            #expect(server.run(["list"], environment: [variable: value]) == .failure(2, """
                tabstore: error: \(variable) must be a number of seconds from 0 to 3600, not '\(value)' (see 'tabstore help list')

                """))
        }
        #expect(server.run(["list"], environment: [variable: "0.5"]) == .ok(""))
    }

    @Test func aWrongPasswordIsNamedButNeverShown() throws {
        let server = try ServerSandbox()
        let user = PostgresServer.passwordUser, port = server.server.port, name = server.databaseName
        let refused = Output.failure(3, """
            tabstore: error: cannot connect to postgresql://\(user)@127.0.0.1:\(port)/\(name): connection to server at "127.0.0.1", port \(port) failed: FATAL:  password authentication failed for user "\(user)"

            """)
        let inURL = server.server.url(database: name, user: user, password: "wrong-secret-1")
        #expect(server.run(["list"], database: inURL) == refused)
        #expect(server.run(["--json", "list"], database: inURL).stderr.contains("wrong-secret-1") == false)
        let inVariable = server.server.url(database: name, user: user)
        #expect(server.run(["list"], database: inVariable, environment: ["PGPASSWORD": "wrong-secret-2"]) == refused)
    }

    /// libpq refuses a password file others have access to, with a warning of its own on stderr;
    /// tabstore prints nothing of libpq's own, and says why the file gave no password when
    /// one was needed. The same file at 0600 gives it.
    @Test func aPasswordFileOthersMayReadIsNamedOnlyWhenAPasswordWasNeeded() throws {
        let server = try ServerSandbox()
        let user = PostgresServer.passwordUser, port = server.server.port, name = server.databaseName
        try server.psql("GRANT ALL ON SCHEMA public TO \(user)")
        let file = server.sandbox.folder + "/passwords"
        try "127.0.0.1:\(port):\(name):\(user):\(PostgresServer.password)\n".write(toFile: file, atomically: false, encoding: .utf8)
        chmod(file, 0o644)
        let withPassword = server.server.url(database: name, user: user)
        let environment = ["PGPASSFILE": file]
        #expect(server.run(["--json", "list"], database: withPassword, environment: environment) == .failure(3, """
            {"error":{"code":3,"message":"cannot connect to postgresql://\(user)@127.0.0.1:\(port)/\(name): connection to server at \\"127.0.0.1\\", port \(port) failed: fe_sendauth: no password supplied; the password file \(file) was not read: others have access to it (permissions should be u=rw, 0600, or less)"}}

            """))
        // A login that needs no password: nothing is said of the file.
        #expect(server.run(["--json", "list"], environment: environment) == .ok(#"{"sets":[]}"# + "\n"))
        chmod(file, 0o600)
        #expect(server.run(["list"], database: withPassword, environment: environment) == .ok(""))
    }

    @Test func theRightPasswordIsNeverShownEither() throws {
        let server = try ServerSandbox()
        let user = PostgresServer.passwordUser, secret = PostgresServer.password
        try server.psql("GRANT ALL ON SCHEMA public TO \(user)")
        let url = server.server.url(database: server.databaseName, user: user, password: secret)
        let shown = "postgresql://\(user)@127.0.0.1:\(server.server.port)/\(server.databaseName)"
        var outputs = [
            server.run(["add", "s", "a"], database: url),
            server.run(["info"], database: url),
            server.run(["--json", "info"], database: url),
            server.run(["list", "nosuch"], database: url),
            server.run(["backup", server.sandbox.folder + "/copy.sqlite"], database: url),
            server.run(["export"], database: server.server.url(database: server.databaseName, user: user),
                       environment: ["PGPASSWORD": secret]),
        ]
        #expect(outputs[1] == .ok("""
            server:          \(shown)
            schema version:  \(PostgresSchema.latestVersion)
            sets:            1
            check:           ok

            """))
        #expect(outputs[2] == .ok(#"{"server":"\#(shown)","schemaVersion":\#(PostgresSchema.latestVersion),"setCount":1,"check":"ok"}"# + "\n"))
        outputs.append(server.run(["--json", "list", "nosuch"], database: url))
        for output in outputs {
            #expect(!output.stdout.contains(secret) && !output.stderr.contains(secret), "\(output)")
        }
    }

    /// A server that dies as the login completes sends its FATAL with the login: libpq
    /// reads it inside the connect, where its default would print it to standard error.
    /// One line, tabstore's, whatever the command; and so on each retry in the window.
    @Test(arguments: [["list"], ["add", "s", "b"], ["info"], ["watch", "s"]], ["0", "1"])
    func aServerDyingAsALoginCompletesGivesOneLine(command: [String], window: String) throws {
        let server = try DyingServer()
        let url = "postgresql://postgres@127.0.0.1:\(server.port)/db?sslmode=disable"
        let output = Sandbox().runWithoutDatabase(["--db", url] + command, environment: ["TABSTORE_FAILOVER_WINDOW": window])
        #expect(output == .failure(3, "tabstore: error: lost the connection to postgresql://postgres@127.0.0.1:\(server.port)/db; nothing was changed\n"))
    }

    @Test func anUnknownDatabaseExits3() throws {
        let server = try ServerSandbox()
        let port = server.server.port
        #expect(server.run(["list"], database: server.server.url(database: "no_such_db")) == .failure(3, """
            tabstore: error: cannot connect to postgresql://postgres@127.0.0.1:\(port)/no_such_db: connection to server at "127.0.0.1", port \(port) failed: FATAL:  database "no_such_db" does not exist

            """))
    }

    @Test func anUnreachablePortExits3() throws {
        let server = try ServerSandbox()
        let closed = try ClosedPort()
        let url = "postgresql://someone:pw-12345@127.0.0.1:\(closed.number)/tabs"
        #expect(server.run(["add", "s", "a"], database: url, environment: ["TABSTORE_FAILOVER_WINDOW": "0.5"]) == .failure(3, """
            tabstore: error: cannot connect to postgresql://someone@127.0.0.1:\(closed.number)/tabs: connection to server at "127.0.0.1", port \(closed.number) failed: Connection refused (tried again until the 0.5 s failover window closed)

            """))
    }

    /// A URL libpq refuses is a database problem (exit 3), as an unopenable file is, not a
    /// usage error: the URL is often not on the command line (TABSTORE_DB).
    @Test func aMalformedURLExits3NamingWhatIsWrong() throws {
        let server = try ServerSandbox()
        #expect(server.run(["list"], database: "postgresql://u:pw-12345@host:notaport/db") == .failure(3, """
            tabstore: error: invalid database URL "postgresql://u@host:notaport/db": its port "notaport" is not a number

            """))
        #expect(server.run(["list"], database: "postgresql://a@b/c?sslmode=bogus") == .failure(3, """
            tabstore: error: cannot connect to postgresql://a@b:5432/c: invalid sslmode value: "bogus"

            """))
        #expect(server.run(["list"], database: "postgresql://a@b/c?nonsense=1") == .failure(3, """
            tabstore: error: invalid database URL "postgresql://a@b/c?nonsense=1": invalid URI query parameter: "nonsense"

            """))
        #expect(server.sandbox.runWithoutDatabase(["list"], environment: ["TABSTORE_DB": "postgres://a@b/c?sslmode=bogus"]) == .failure(3, """
            tabstore: error: cannot connect to postgresql://a@b:5432/c: invalid sslmode value: "bogus"

            """))
    }

    @Test func aMissingLibpqSaysWhatToInstall() throws {
        let server = try ServerSandbox()
        #expect(server.run(["list"], environment: ["TABSTORE_LIBPQ": "/nonexistent/libpq.so.5"]) == .failure(3, """
            tabstore: error: a postgresql:// database needs libpq, which could not be loaded (/nonexistent/libpq.so.5: cannot open shared object file: No such file or directory); install it (apt-get install libpq5) or name it in TABSTORE_LIBPQ

            """))
    }

    @Test func backupOfAServerExits1() throws {
        let server = try ServerSandbox()
        server.succeed("add", "s", "a")
        let copy = server.sandbox.folder + "/copy.sqlite"
        #expect(server.run("backup", copy) == .failure(1, """
            tabstore: error: backup copies a database file, and \(server.url) is a server; use 'tabstore export' (or pg_dump) instead

            """))
        #expect(!server.sandbox.exists(copy))
    }

    /// A server database without tabstore's tables exists: the message says what it lacks
    /// (`watch` waits for them: ServerWatchOutageTests).
    @Test func aDatabaseWithoutTablesIsNotCalledMissing() throws {
        let server = try ServerSandbox()
        let message = Output.failure(1, "tabstore: error: database \(server.url) has no tabstore tables yet\n")
        #expect(server.run("info") == message)
        #expect(server.run("list") == .ok(""))
        #expect(try server.psql("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == "0\n")
    }

    /// Tab ids edited around tabstore (upper case, not a UUID, the nil UUID, none) are a
    /// finding of the rule check on a server as on a file.
    @Test func tabIdsEditedByHandAreFound() throws {
        let server = try ServerSandbox()
        server.succeed("add", "s", "a", "b", "c", "d")
        try server.psql("""
            SET session_replication_role = replica;
            UPDATE tab SET uuid = upper(uuid) WHERE title = 'a';
            UPDATE tab SET uuid = 'garbage' WHERE title = 'b';
            UPDATE tab SET uuid = '00000000-0000-0000-0000-000000000000' WHERE title = 'c'
            """)
        #expect(server.run("info") == .failure(3, """
            tabstore: error: the check of database \(server.url) found: set "s": 3 of its tabs have no valid id (a lowercase UUID, not the nil one)

            """))
    }

    /// Titles and data edited around tabstore are found on a server as on a file.
    @Test func titlesAndDataEditedByHandAreFound() throws {
        let server = try ServerSandbox()
        server.succeed("add", "s", "a", "b", "c")
        server.succeed("set-data", "s", "c", "icon=star")
        #expect(server.run("info").code == 0)
        try server.psql("""
            SET session_replication_role = replica;
            UPDATE tab SET title = E'\\x1b]0;PWN\\x07' WHERE title = 'a';
            UPDATE tab SET payload = '1:k5:v' WHERE title IN ('b', 'c')
            """)
        #expect(server.run("info") == .failure(3, """
            tabstore: error: the check of database \(server.url) found: set "s": 1 of its tabs has a title the rules refuse \
            (empty, too long, invisible or with a control character); set "s": 2 of its tabs have data not as tabstore \
            writes it (reads take only what they can of it)

            """))
    }

    /// `info` on a server whose rows break the rules says so, not that a file is corrupt.
    @Test func aDamagedServerDatabaseIsNotCalledCorrupt() throws {
        let server = try ServerSandbox()
        server.succeed("add", "s", "a", "b")
        try server.psql("SET session_replication_role = replica; UPDATE tab SET position = position + 10 WHERE title = 'b'")
        #expect(server.run("info") == .failure(3, """
            tabstore: error: the check of database \(server.url) found: set "s": its tabs' positions are not contiguous from its base

            """))
    }
}
