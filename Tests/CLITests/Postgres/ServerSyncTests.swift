import TabStoreTestSupport
import Testing

/// `tabstore sync` where the database is on a server: a server is never a device.
@Suite(.enabled(if: PostgresServer.shouldRun, Comment(rawValue: PostgresServer.skipReason)))
struct ServerSyncTests {
    /// Refused before the file it names is opened: that file is neither read nor made, and
    /// the server's sets are as they were. The same for a server database without
    /// tabstore's tables yet, though a missing device file is made only after its server.
    @Test(arguments: [true, false])
    func aServerDatabaseIsRefusedAsADeviceAndTheFileItNamesIsNotMade(holdingSets: Bool) throws {
        let server = try ServerSandbox()
        if holdingSets { server.succeed("add", "main", "Home") }
        let before = holdingSets ? server.succeed("export").stdout : nil
        let infoBefore = server.run("info")
        let file = server.sandbox.folder + "/shared.sqlite"
        let output = server.run("sync", file)
        let shown = server.url.replacing(#/:[^:@/]*@/#, with: "@")
        #expect(output == Output(code: 1, stdout: "", stderr: """
            tabstore: error: "\(shown)" is a server: a device that syncs keeps its tabs in a file

            """))
        #expect(!server.sandbox.exists(file))
        if let before { #expect(server.succeed("export").stdout == before) }
        // Without tables, the server is left without them: info says so as it did.
        #expect(server.run("info") == infoBefore)
    }
}
