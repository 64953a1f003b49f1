import Synchronization
import Testing
import TabStoreTestSupport
@testable import TabStoreKit
@testable import TabStorePostgres

/// A write whose connection the server drops before its COMMIT went out is run again: a
/// fresh snapshot, a new plan. The retried write must give what one attempt gives: the
/// same stored sets, the same outcome, and progress that never repeats or runs past the
/// total. (PostgresLostCommitTests: a connection lost once the COMMIT went out.)
@Suite(.enabled(if: PostgresServer.shouldRun, Comment(rawValue: PostgresServer.skipReason)))
struct PostgresRetryTests {
    /// 200 sets of 3 tabs: a snapshot each (200 parts), then a plan of about 1,200
    /// statements, sent in three parts of at most 500.
    static let sets = 200
    static let document = TabStoreDocument(sets: (0..<sets).map { number in
        .init(name: "set \(number)", selectedIndex: number % 3, tabs: ["a\(number)", "b\(number)", "c\(number)"])
    })

    /// Imports the document, ending the writer's server process before its part
    /// `killedPart` is sent on the first attempt (nil: never); returns the progress reports,
    /// what the import returned and what the database then holds.
    private func importing(killedPart: Int?) throws -> (reports: [Int], written: Int, sets: [TabSet], journal: [String]) {
        let url = try PostgresServer.shared().createDatabase()
        let store = try TabStore(postgresURL: url)
        let backend = try #require(store.backend as? PostgresBackend)
        let attempts = Mutex(0)
        backend.beforeSendingPart.withLock {
            $0 = { part, processID in
                guard part == killedPart else { return }
                attempts.withLock { $0 += 1 }
                if attempts.withLock({ $0 }) == 1 { terminate(processID, in: url) }
            }
        }
        var reports: [Int] = []
        let written = try store.importDocument(Self.document) { done, total in
            #expect(total == Self.sets * 3)
            reports.append(done)
        }
        if killedPart != nil { #expect(attempts.withLock { $0 } == 2) }
        let reader = try TabStore(postgresURL: url)
        let sets = try reader.tabSets().map { try reader.tabSet(named: $0.name) }
        let journal = try reader.history(of: "set 7").map { "\($0.revision) \($0.event.kind.rawValue)" }
        return (reports, written, sets, journal)
    }

    /// Ended before a set's snapshot, before the plan's first part, before its second (when
    /// the first part's tabs were already reported), or before its last, the COMMIT's (then
    /// the import finds on a new connection that its change was not saved).
    @Test(arguments: [7, sets, sets + 1, sets + 2])
    func aRetriedImportGivesWhatOneAttemptGives(killedPart: Int) throws {
        let once = try importing(killedPart: nil)
        let retried = try importing(killedPart: killedPart)
        #expect(retried.written == Self.sets && once.written == Self.sets)
        #expect(once.reports.count == 3)
        #expect(retried.reports == once.reports)
        #expect(retried.reports.last == Self.sets * 3)
        #expect(zip(retried.reports, retried.reports.dropFirst()).allSatisfy { $0 < $1 })
        // The same sets, tabs, selections and revisions; ids are the document's (fresh ones
        // where it gives none), so compare what a person sees.
        #expect(retried.sets.map { picture($0) } == once.sets.map { picture($0) })
        #expect(retried.sets.map(\.revision) == once.sets.map(\.revision))
        #expect(retried.journal == once.journal)
        #expect(retried.journal == ["2 selected", "1 added"])
    }

    /// A select whose connection was dropped before its snapshot is run again, and returns
    /// the same selection and the set as it leaves it.
    @Test func aRetriedSelectGivesWhatOneAttemptGives() throws {
        let url = try PostgresServer.shared().createDatabase()
        let store = try TabStore(postgresURL: url)
        try store.add(["Home", "Menu", "Reviews"], to: "s", creatingSet: true)
        let backend = try #require(store.backend as? PostgresBackend)
        let killed = Mutex(false)
        backend.beforeSendingPart.withLock {
            $0 = { partsSent, processID in
                guard partsSent == 0 else { return }
                let first = killed.withLock { killed in
                    defer { killed = true }
                    return !killed
                }
                if first { terminate(processID, in: url) }
            }
        }
        let change = try store.select(.index(2), in: "s")
        #expect(killed.withLock { $0 })
        #expect(change.previousIndex == 0 && change.selectedIndex == 2 && change.revision == 2)
        #expect(picture(change.set) == ["Home", "Menu", "*Reviews"])
        #expect(change.set == (try TabStore(postgresURL: url).tabSet(named: "s")))
        #expect(try TabStore(postgresURL: url).history(of: "s").map(\.revision) == [2, 1])
    }
}

/// Ends the server process `processID` of the database at `url`, as an operator would.
func terminate(_ processID: Int32, in url: String) {
    let database = String(url.split(separator: "/").last ?? "")
    _ = try? PostgresServer.shared().psql(database, "SELECT pg_terminate_backend(\(processID))")
}
