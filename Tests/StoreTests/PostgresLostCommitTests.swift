import Synchronization
import Testing
import TabStoreTestSupport
@testable import TabStoreKit
@testable import TabStorePostgres

/// A write whose connection breaks once its COMMIT went out does not know by itself
/// whether it was saved. It asks the server, on a new connection, for the change id its
/// journal rows carry: found, the write stands and is not run again; not found (the old
/// server process having ended), it runs again. Either way the caller gets what one
/// attempt gives, and nothing is saved twice.
@Suite(.enabled(if: PostgresServer.shouldRun, Comment(rawValue: PostgresServer.skipReason)))
struct PostgresLostCommitTests {
    /// The faults a write's connection meets: none; its server process ended before a
    /// part is sent; or the connection cut once a part was sent, its answer lost. An edit
    /// sends two parts: its snapshot (0), then its plan with the COMMIT (1).
    enum Fault: CaseIterable {
        case none, endedBeforeSnapshot, endedBeforeCommit, cutAfterSnapshot, cutAfterCommit
    }

    private func arm(_ fault: Fault, _ backend: PostgresBackend, url: String) {
        backend.beforeSendingPart.withLock { $0 = nil }
        switch fault {
        case .none: break
        case .endedBeforeSnapshot, .endedBeforeCommit:
            let part = fault == .endedBeforeSnapshot ? 0 : 1
            let fired = Mutex(false)
            backend.beforeSendingPart.withLock {
                $0 = { partsSent, processID in
                    guard partsSent == part, !fired.withLock({ $0 }) else { return }
                    fired.withLock { $0 = true }
                    terminate(processID, in: url)
                }
            }
        case .cutAfterSnapshot:
            backend.cutAfterSendingPart.withLock { $0 = 0 }
        case .cutAfterCommit:
            backend.cutAfterSendingPart.withLock { $0 = 1 }
        }
    }

    /// Random edits, each under a random fault, on the server and on a store in memory that
    /// meets none: every edit returns the same set, and the journals match entry for entry
    /// (an edit saved twice would add one).
    @Test(arguments: [41, 42] as [UInt64])
    func everyEditUnderAFaultGivesWhatOneAttemptGives(seed: UInt64) throws {
        let url = try PostgresServer.shared().createDatabase()
        let server = try TabStore(postgresURL: url)
        let backend = try #require(server.backend as? PostgresBackend)
        let model = try TabStore.inMemory()
        var random = SplitMix64(seed: seed)
        var next = 0
        func title() -> String {
            next += 1
            return "t\(next)"
        }
        for store in [server, model] { try store.add(["a", "b", "c"], to: "s", creatingSet: true) }
        var faultsMet: Set<Fault> = []
        for step in 0..<60 {
            let count = try model.tabSet(named: "s").tabs.count
            let operation = random.below(count < 3 ? 2 : 7)
            let titles = (0...random.below(2)).map { _ in title() }
            let (a, b) = (random.below(max(count, 1)), random.below(max(count, 1)))
            func edit(_ store: TabStore) throws -> TabSet {
                switch operation {
                case 0, 1: try store.add(titles, to: "s", at: min(a, count)).set
                case 2: try store.remove([.index(a)], from: "s").set
                case 3: try store.move(.index(a), to: b, in: "s").set
                case 4: try store.rename(.index(a), to: titles[0], in: "s").set
                case 5: try store.setPayload(["n": titles[0]], for: .index(a), in: "s").set
                default: try store.select(.index(a), in: "s").set
                }
            }
            let fault = Fault.allCases[random.below(Fault.allCases.count)]
            arm(fault, backend, url: url)
            faultsMet.insert(fault)
            let expected = try edit(model)
            let returned = try edit(server)
            #expect(picture(returned) == picture(expected) && returned.revision == expected.revision,
                    "step \(step), \(fault)")
            #expect(returned.tabs.map(\.payload) == expected.tabs.map(\.payload), "step \(step), \(fault)")
        }
        #expect(faultsMet.count == Fault.allCases.count)
        let reader = try TabStore(postgresURL: url)
        #expect(picture(try reader.tabSet(named: "s")) == picture(try model.tabSet(named: "s")))
        let journal = { (store: TabStore) in try store.history(of: "s").map { "\($0.revision) \($0.event.kind.rawValue)" } }
        #expect(try journal(reader) == journal(model))
        #expect(try reader.info().consistencyCheck == "ok")
    }

    /// An import whose last part (its COMMIT) was run but whose answer was lost: the import
    /// stands, once, and its progress still reaches every tab.
    @Test func anImportWhoseCommitAnswerIsLostStandsOnce() throws {
        let url = try PostgresServer.shared().createDatabase()
        let store = try TabStore(postgresURL: url)
        let backend = try #require(store.backend as? PostgresBackend)
        let sets = 200
        let document = TabStoreDocument(sets: (0..<sets).map { number in
            .init(name: "set \(number)", selectedIndex: number % 3, tabs: ["a\(number)", "b\(number)", "c\(number)"])
        })
        // A snapshot a set (parts 0-199), then the plan in parts of 500 statements: the
        // COMMIT goes in part 202.
        backend.cutAfterSendingPart.withLock { $0 = sets + 2 }
        var reports: [Int] = []
        let written = try store.importDocument(document) { done, _ in reports.append(done) }
        #expect(backend.cutAfterSendingPart.withLock { $0 } == nil)
        #expect(written == sets)
        #expect(reports.last == sets * 3 && reports.count == 3)
        let reader = try TabStore(postgresURL: url)
        #expect(try reader.tabSets().count == sets)
        #expect(try reader.history(of: "set 7").map { "\($0.revision) \($0.event.kind.rawValue)" } == ["2 selected", "1 added"])
    }
}
