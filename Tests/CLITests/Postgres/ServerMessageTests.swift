import Foundation
import TabStoreTestSupport
import Testing

/// What a server refuses is said in tabstore's words, naming what is wrong: never a raw
/// SQLSTATE for a database set read-only, one not in UTF8, or a missing privilege.
@Suite(.enabled(if: PostgresServer.shouldRun, Comment(rawValue: PostgresServer.skipReason)))
struct ServerMessageTests {
    /// Each server of a multi-host URL is named with its own reason, on one line.
    @Test func everyHostOfAMultiHostURLGivesItsOwnReason() throws {
        let server = try ServerSandbox()
        let closed = try ClosedPort()
        let url = "postgresql://postgres@127.0.0.1:\(closed.number),127.0.0.1:\(server.server.port)/no_such_db"
        #expect(server.run(["list"], database: url, environment: ["TABSTORE_FAILOVER_WINDOW": "0"]) == .failure(3, """
            tabstore: error: cannot connect to postgresql://postgres@127.0.0.1:\(closed.number),127.0.0.1:\(server.server.port)/no_such_db: \
            connection to server at "127.0.0.1", port \(closed.number) failed: Connection refused; \
            connection to server at "127.0.0.1", port \(server.server.port) failed: FATAL:  database "no_such_db" does not exist

            """))
    }

    @Test func aReadOnlyDatabaseWithoutTablesSaysItIsReadOnly() throws {
        let server = try ServerSandbox()
        try server.psql("ALTER DATABASE \(server.databaseName) SET default_transaction_read_only = on")
        #expect(server.run("add", "s", "a") == .failure(3, "tabstore: error: database \(server.url) is read-only\n"))
        #expect(try server.psql("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == "0\n")
    }

    @Test func aDatabaseNotInUTF8IsNamedWithItsEncoding() throws {
        let server = try ServerSandbox()
        try server.psql("CREATE DATABASE \(server.databaseName)_latin ENCODING 'LATIN1' TEMPLATE template0 LC_COLLATE 'C' LC_CTYPE 'C'")
        let url = server.url + "_latin"
        let refused = Output.failure(3, """
            tabstore: error: database \(url) is encoded in LATIN1; tabstore needs a UTF8 database (CREATE DATABASE ... ENCODING 'UTF8')

            """)
        #expect(server.run(["add", "s", "a"], database: url) == refused)
        #expect(server.run(["list"], database: url) == refused)
    }

    /// README's grants ("Another role") let a second role use a store the owner made;
    /// without one, the message names the privilege and the role.
    @Test func aSecondRoleWithTheREADMEsGrantsUsesTheStoreAndWithoutOneIsToldWhich() throws {
        let server = try ServerSandbox()
        server.succeed("add", "s", "a", "b")
        // Roles belong to the whole server: one of this test's own.
        let role = "user_" + server.databaseName
        try server.psql("CREATE ROLE \(role) LOGIN")
        let url = server.server.url(database: server.databaseName, user: role)
        let shown = "postgresql://\(role)@127.0.0.1:\(server.server.port)/\(server.databaseName)"
        #expect(server.run(["list"], database: url) == .failure(3, """
            tabstore: error: role "\(role)" lacks the SELECT privilege on table public.tabstore_schema in \(shown)

            """))
        try server.psql(Self.readmeGrants.replacing("tab_user", with: role))
        #expect(server.run(["select", "s", "b"], database: url) == .ok("selected 1: b\n"))
        #expect(server.run(["add", "s", "c"], database: url) == .ok("added 1 tab to s\n"))
        #expect(server.run(["remove", "s", "a"], database: url) == .ok("removed 1 tab from s\n"))
        #expect(server.run(["reopen", "s"], database: url) == .ok("reopened 0: a\n"))
        #expect(server.run(["rename-set", "s", "t"], database: url) == .ok("renamed set s to t\n"))
        #expect(server.run(["add", "u", "x"], database: url) == .ok("added 1 tab to u\n"))
        #expect(server.run(["remove-set", "u"], database: url) == .ok("removed set u\n"))
        #expect(server.run(["list", "t"], database: url) == .ok("  0  a\n* 1  b\n  2  c\n"))
        #expect(server.run(["info"], database: url).code == 0)
        try server.psql("REVOKE UPDATE ON public.tab_set FROM \(role)")
        #expect(server.run(["select", "t", "c"], database: url) == .failure(3, """
            tabstore: error: role "\(role)" lacks the UPDATE privilege on table public.tab_set in \(shown)

            """))
        #expect(server.run(["list", "t"], database: url) == .ok("  0  a\n* 1  b\n  2  c\n"))
    }

    /// A role that may not create tables in the schema, on a database without them.
    @Test func aRoleThatCannotCreateTheTablesIsToldWhich() throws {
        let server = try ServerSandbox()
        let role = "user_" + server.databaseName
        try server.psql("CREATE ROLE \(role) LOGIN")
        let url = server.server.url(database: server.databaseName, user: role)
        #expect(server.run(["add", "s", "a"], database: url) == .failure(3, """
            tabstore: error: role "\(role)" lacks the CREATE privilege on schema public in postgresql://\(role)@127.0.0.1:\(server.server.port)/\(server.databaseName)

            """))
    }

    /// The grants README lists for a second role (`tab_user`), word for word.
    static let readmeGrants = """
        GRANT USAGE ON SCHEMA public TO tab_user;
        GRANT SELECT ON public.tabstore_schema TO tab_user;
        GRANT SELECT, INSERT, UPDATE, DELETE ON public.tab_set, public.tab, public.closed_tab, public.change, public.name_revision TO tab_user;
        """
}
