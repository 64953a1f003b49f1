import Foundation
import Testing
import TabStoreKit
import TabStoreTestSupport
@testable import TabStorePostgres

/// A standby cannot LISTEN: a watcher there reads the journal every
/// `PostgresListener.standbyInterval` instead, and asks nothing the standby refuses.
@Suite(.enabled(if: PostgresServer.shouldRun, Comment(rawValue: PostgresServer.skipReason)))
struct StandbyWatchTests {
    @Test func aWatcherOnAStandbyGetsThePrimarysChangesWithoutAnErrorInItsLog() async throws {
        let pair = try ReplicatedPostgres.start()
        defer { pair.destroy() }
        let database = try pair.createDatabase()
        let primary = try TabStore(postgresURL: pair.primary.url(database: database))
        try await primary.write { try $0.add(["a", "b"], to: "s", creatingSet: true) }
        // The standby has the set once it replayed the add.
        let standbyURL = pair.standby.url(database: database)
        try await waitFor("the standby to replay the add") { (try? TabStore(postgresURL: standbyURL).tabSet(named: "s")) != nil }
        let watcher = try TabStore(postgresURL: standbyURL)
        let seen = ConcurrentWritersTests.Collector(watcher.changes(in: "s"))
        try await primary.write { try $0.select(.index(1), in: "s") }
        try await primary.write { try $0.rename(.index(0), to: "c", in: "s") }
        #expect(try await seen.waitFor(count: 2).map(ConcurrentWritersTests.entry) == ["2 selected", "3 renamed"])
        let log = try String(contentsOfFile: pair.standby.folder + "/server.log", encoding: .utf8)
        #expect(!log.contains("ERROR"), "\(log.split(separator: "\n").filter { $0.contains("ERROR") })")
        withExtendedLifetime(watcher) {}
    }
}
