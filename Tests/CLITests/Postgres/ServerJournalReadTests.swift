import TabStoreKit
@testable import TabStorePostgres
import TabStoreTestSupport
import Testing

/// What `watch` relies on when the server goes away between a wake-up and its read: the
/// read finds nothing yet instead of ending every observer, and the listener's wake-up
/// after it reconnects reads on from the last change handed out.
@Suite(.enabled(if: PostgresServer.shouldRun, Comment(rawValue: PostgresServer.skipReason)))
struct ServerJournalReadTests {
    @Test func aJournalReadWhileTheServerIsDownFindsNothingYet() throws {
        let server = try ServerSandbox(ownServer: ())
        server.succeed("add", "s", "a")
        let backend = try PostgresBackend(url: server.url, options: .init())
        #expect(try backend.readJournal(after: 0, unlessVersionIs: nil).changes.map(\.change.setName) == ["s"])
        server.server.stop()
        #expect(try backend.readJournal(after: 0, unlessVersionIs: nil).changes.isEmpty)
        try server.server.restart()
        server.succeed("add", "s", "b")
        #expect(try backend.readJournal(after: 0, unlessVersionIs: nil).changes.map(\.change.revision) == [1, 2])
    }
}
