import TabStoreSQLite
import Dispatch
import Testing
@testable import TabStoreKit

/// Many threads at once, on one store and on two stores sharing a file: every
/// acknowledged write is there exactly once, and the rules still hold.
@Suite struct ConcurrencyTests {
    let folder = TemporaryFolder()

    @Test func eightThreadsShareOneStore() throws {
        let store = try TabStore(path: folder.file(), options: .init(durability: .normal))
        try hammer(stores: [store], threads: 8)
    }

    @Test func twoStoresOnOneFile() throws {
        let path = folder.file()
        // What this proves is that no write is lost or doubled, not how long one waits:
        // SQLite's lock is not fair, and on a loaded 2-core machine one connection's writer
        // can wait out 5 s while the other's four threads take turns. Give it room.
        let options = TabStore.Options(durability: .normal, busyTimeout: .seconds(60))
        let stores = [try TabStore(path: path, options: options), try TabStore(path: path, options: options)]
        try hammer(stores: stores, threads: 8)
    }

    @Test func aWriteLockHeldPastTheBusyTimeoutFailsWithBusyAndChangesNothing() throws {
        let path = folder.file()
        let store = try TabStore(path: path, options: .init(busyTimeout: .milliseconds(100)))
        try store.add(["A", "B"], to: "main", creatingSet: true)
        let holder = try Database(path: path, flags: SQLITE_OPEN_READWRITE)
        try holder.executeScript("BEGIN IMMEDIATE")
        #expect(thrownError { () throws(TabStoreError) in try store.select(.index(1), in: "main") } == TabStoreError(.busy(path: path)))
        // Reads do not wait for writers in WAL mode.
        #expect(try picture(store.tabSet(named: "main")) == ["*A", "B"])
        try holder.executeScript("ROLLBACK")
        #expect(try store.select(.index(1), in: "main").selectedIndex == 1)
    }

    @Test func eightConnectionsCreateOneNewFileAtOnce() throws {
        let path = folder.file()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            do {
                let store = try TabStore(path: path)
                try store.add(["t\(thread)"], to: "s\(thread % 2)", creatingSet: true)
            } catch {
                Issue.record("thread \(thread): \(error)")
            }
        }
        let store = try TabStore(path: path)
        #expect(try store.tabSets().map(\.tabCount) == [4, 4])
        #expect(try store.info().schemaVersion == Migration.latestVersion)
    }

    /// Each thread adds its own tabs to a shared set and selects among them.
    private func hammer(stores: [TabStore], threads: Int, rounds: Int = 40) throws {
        try stores[0].add(["start"], to: "shared", creatingSet: true)
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            let store = stores[thread % stores.count]
            for round in 0..<rounds {
                do {
                    try store.add(["t\(thread)-\(round)"], to: "shared", creatingSet: true)
                    let change = try store.select(.title("t\(thread)-\(round)"), in: "shared")
                    #expect(change.selectedTab.title == "t\(thread)-\(round)")
                    if round % 5 == 0 { try store.move(.index(-1), to: 0, in: "shared") }
                    try store.select(.index(0), in: "shared")
                } catch {
                    Issue.record("thread \(thread) round \(round): \(error)")
                }
            }
        }
        let set = try stores[0].tabSet(named: "shared")
        let expected = Set(["start"] + (0..<threads).flatMap { thread in (0..<rounds).map { "t\(thread)-\($0)" } })
        #expect(set.tabs.count == expected.count)
        #expect(Set(set.tabs.map(\.title)) == expected)
        #expect(set.tabs.filter(\.isSelected).count == 1)
        // Every change got its own revision: the journal holds 1...revision without a gap.
        let history = try stores[0].history(of: "shared", limit: 100_000)
        #expect(history.map(\.revision) == Array((1...set.revision).reversed()))
        #expect(history.filter { if case .added = $0.event { true } else { false } }.count == expected.count)
        #expect(try stores[0].info().consistencyCheck == "ok")
    }
}
