import Foundation
import TabStoreTestSupport
import Testing

/// What a new user got wrong on the way to a server, found by a trial run: a URL that is
/// almost right never becomes a file path, a password never shows, and a database that
/// already holds a table with one of tabstore's names is refused before anything is made.
@Suite(.enabled(if: PostgresServer.shouldRun, Comment(rawValue: PostgresServer.skipReason)))
struct ServerNearMissTests {
    /// What the sandbox folder holds besides the runner's own output files.
    private func files(in sandbox: ServerSandbox) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: sandbox.sandbox.folder)) ?? [])
            .filter { !$0.hasPrefix(".") && $0 != "home" }.sorted()
    }

    @Test func aSchemeInAnyCaseIsAServerNotAFolder() throws {
        let server = try ServerSandbox()
        let upper = "POSTGRESQL://" + server.url.dropFirst("postgresql://".count)
        #expect(server.run(["add", "s", "a"], database: upper) == .ok("added 1 tab to s\n"))
        let mixed = "Postgres://" + server.url.dropFirst("postgresql://".count)
        #expect(server.run(["list", "s"], database: mixed) == .ok("* 0  a\n"))
        #expect(files(in: server) == [])
    }

    @Test func aSchemeWithoutItsSlashesIsRefusedNotAFile() throws {
        let server = try ServerSandbox()
        for url in ["postgresql:/host/db", "postgres:db"] {
            #expect(server.run(["add", "s", "a"], database: url) == .failure(3, """
                tabstore: error: invalid database URL "\(url)": it does not start with postgresql:// or postgres://

                """))
        }
        #expect(files(in: server) == [])
    }

    @Test func aPasswordWithoutAHostIsNeverQuotedBack() throws {
        let server = try ServerSandbox()
        let output = server.run(["list"], database: "postgresql://pwuser:S3cretPW")
        #expect(output == .failure(3, """
            tabstore: error: invalid database URL "postgresql://…": its port is not a number (a password goes in user:password@host)

            """))
    }

    @Test func aTableWithOneOfTabstoresNamesIsRefusedBeforeAnythingIsMade() throws {
        let server = try ServerSandbox()
        try server.psql("CREATE TABLE change (id int, what text)")
        let refused = Output.failure(3, """
            tabstore: error: database \(server.url) has tables with tabstore's names (tab_set, tab, closed_tab, change or name_revision) but no tabstore_schema table; use another database or schema

            """)
        #expect(server.run("add", "s", "a") == refused)
        #expect(server.run("list") == refused)
        let tables = try server.psql("SELECT string_agg(relname, ',' ORDER BY relname) FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace")
        #expect(tables.trimmingCharacters(in: .whitespacesAndNewlines) == "change")
    }

    @Test func otherProgramsTablesMayLiveBesideTabstores() throws {
        let server = try ServerSandbox()
        try server.psql("CREATE TABLE customers (id int)")
        server.succeed("add", "s", "a")
        #expect(server.run("info").stdout.hasSuffix("check:           ok\n"))
    }
}
