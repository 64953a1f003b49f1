import TabStoreTestSupport
import Testing

/// `tabstore sync` where the database is on a server: a server is never a device.
@Suite(.enabled(if: PostgresServer.shouldRun, Comment(rawValue: PostgresServer.skipReason)))
struct ServerSyncTests {
    /// Refused before the server it names is opened: that file is neither read nor made,
    /// and the server's sets are as they were.
    @Test func aServerDatabaseIsRefusedAsADeviceAndTheFileItNamesIsNotMade() throws {
        let server = try ServerSandbox()
        server.succeed("add", "main", "Home")
        let before = server.succeed("export").stdout
        let file = server.sandbox.folder + "/shared.sqlite"
        let output = server.run("sync", file)
        let shown = server.url.replacing(#/:[^:@/]*@/#, with: "@")
        #expect(output == Output(code: 1, stdout: "", stderr: """
            tabstore: error: "\(shown)" is a server: a device that syncs keeps its tabs in a file

            """))
        #expect(!server.sandbox.exists(file))
        #expect(server.succeed("export").stdout == before)
    }

    /// The same for a server database without tabstore's tables yet: it is refused before the
    /// file is opened, where a missing device file would be made only after its server.
    @Test func aNewServerDatabaseIsRefusedAsADeviceToo() throws {
        let server = try ServerSandbox()
        let file = server.sandbox.folder + "/shared.sqlite"
        let output = server.run("sync", file)
        let shown = server.url.replacing(#/:[^:@/]*@/#, with: "@")
        #expect(output == Output(code: 1, stdout: "", stderr: """
            tabstore: error: "\(shown)" is a server: a device that syncs keeps its tabs in a file

            """))
        #expect(!server.sandbox.exists(file))
    }
}
