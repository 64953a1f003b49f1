import Foundation
import TabStoreTestSupport
import Testing

/// What a connection asks of its server whatever the environment, the URL or the server's
/// own settings say: UTF8, and the one schema tabstore chose.
@Suite(.enabled(if: PostgresServer.shouldRun, Comment(rawValue: PostgresServer.skipReason)))
struct ServerSessionTests {
    /// PGCLIENTENCODING (or a URL's client_encoding) once turned é into mojibake with exit 0:
    /// every connection speaks UTF8.
    @Test(arguments: ["LATIN1", "SJIS"])
    func textIsStoredAsUTF8WhateverClientEncodingTheEnvironmentAsks(encoding: String) throws {
        let server = try ServerSandbox()
        #expect(server.run(["add", "sé", "é", "홈 😀"], environment: ["PGCLIENTENCODING": encoding]) == .ok("added 2 tabs to sé\n"))
        let withParameter = server.url + "?client_encoding=" + encoding
        #expect(server.run(["add", "sé", "ü"], database: withParameter) == .ok("added 1 tab to sé\n"))
        // Read by psql (UTF8), not by tabstore: the bytes in the database.
        #expect(try server.psql("SELECT s.name, t.title, octet_length(t.title) FROM tab t JOIN tab_set s ON s.id = t.set_id ORDER BY t.position")
            == "sé|é|2\nsé|홈 😀|8\nsé|ü|2\n")
        #expect(server.run(["list", "sé"], environment: ["PGCLIENTENCODING": encoding]) == .ok("* 0  é\n  1  홈 😀\n  2  ü\n"))
    }

    /// A schema named like the user, made after the store, comes first in the default
    /// search path ("$user", public): tabstore once read it as an empty store and made a
    /// second one there. It uses `public` (or the URL's search_path) and nothing else.
    @Test func aSchemaNamedLikeTheUserDoesNotHideTheStore() throws {
        let server = try ServerSandbox()
        server.succeed("add", "s", "a")
        try server.psql("CREATE SCHEMA postgres")
        #expect(try server.psql("SELECT current_schema()") == "postgres\n")
        #expect(server.run("list") == .ok("s  1 tab   a\n"))
        server.succeed("add", "t", "b")
        #expect(server.run("list") == .ok("s  1 tab   a\nt  1 tab   b\n"))
        #expect(try server.psql("SELECT count(*) FROM pg_tables WHERE schemaname = 'postgres'") == "0\n")
        #expect(try server.psql("SELECT count(*) FROM public.tab_set") == "2\n")
        // The same through the database's and the role's own search paths.
        try server.psql("CREATE SCHEMA decoy; ALTER DATABASE \(server.databaseName) SET search_path = decoy, public")
        #expect(server.run("list") == .ok("s  1 tab   a\nt  1 tab   b\n"))
    }

    @Test func theURLsSearchPathChoosesTheSchema() throws {
        let server = try ServerSandbox()
        try server.psql("CREATE SCHEMA \"Tabs Here\"")
        let url = server.url + "?options=-c%20search_path%3D%22Tabs%5C%20Here%22,public"
        #expect(server.run(["add", "s", "a"], database: url) == .ok("added 1 tab to s\n"))
        #expect(try server.psql("SELECT schemaname FROM pg_tables WHERE tablename = 'tab_set'") == "Tabs Here\n")
        #expect(server.run(["list"], database: url) == .ok("s  1 tab   a\n"))
        // `public` has no store: the default URL reads it as empty, and says so where it must.
        #expect(server.run("list") == .ok(""))
        let missing = server.url + "?options=-csearch_path%3Dnowhere"
        #expect(server.run(["list"], database: missing) == .failure(3, """
            tabstore: error: schema "nowhere" does not exist in database \(server.url); create it, or name another in the URL's search_path

            """))
    }
}
