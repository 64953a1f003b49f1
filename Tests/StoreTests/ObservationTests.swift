import TabStoreTestSupport
import Testing
@testable import TabStoreKit

/// Observers hear every change, in order, from this store and from other connections.
@Suite struct ObservationTests {
    let folder = TemporaryFolder()
    let options = TabStore.Options(durability: .normal, changePollInterval: .milliseconds(10))

    /// The script both tests run, and the events it must produce.
    private func runScript(on store: TabStore) throws {
        try store.add(["Home", "All menu", "Reviews"], to: "main", creatingSet: true)
        try store.select(.index(2), in: "main")
        try store.move(.title("Reviews"), to: 0, in: "main")
        try store.rename(.index(1), to: "Start", in: "main")
        try store.add(["other"], to: "elsewhere", creatingSet: true)
        try store.remove([.title("Reviews")], from: "main")
        try store.reopen(in: "main")
        try store.renameSet("main", to: "renamed")
        try store.select(.index(-1), in: "renamed")
        try store.removeSet("renamed")
    }

    private let scriptEvents: [TabEvent] = [
        .added(titles: ["Home", "All menu", "Reviews"], index: 0),
        .selectionChanged([
            TabUpdate(index: 0, tab: Tab(id: .unknown, title: "Home", isSelected: false)),
            TabUpdate(index: 2, tab: Tab(id: .unknown, title: "Reviews", isSelected: true)),
        ]),
        .moved(title: "Reviews", from: 2, to: 0),
        .renamed(index: 1, from: "Home", to: "Start"),
        .removed([TabUpdate(index: 0, tab: Tab(id: .unknown, title: "Reviews", isSelected: true))]),
        .reopened(TabUpdate(index: 0, tab: Tab(id: .unknown, title: "Reviews", isSelected: true))),
        .setRenamed(from: "main", to: "renamed"),
        .selectionChanged([
            TabUpdate(index: 0, tab: Tab(id: .unknown, title: "Reviews", isSelected: false)),
            TabUpdate(index: 2, tab: Tab(id: .unknown, title: "All menu", isSelected: true)),
        ]),
        .setRemoved,
    ]

    @Test(arguments: StoreBackend.allCases)
    func observerInTheSameStoreGetsEveryEventInOrder(backend: StoreBackend) async throws {
        let store = try backend.makeDatabase(in: folder).open(options: options)
        let changes = store.changes(in: "main")
        try runScript(on: store)
        let received = try await first(scriptEvents.count, of: changes)
        #expect(received.map(\.event.ignoringIDs) == scriptEvents)
        #expect(received.map(\.revision) == [1, 2, 3, 4, 5, 6, 7, 8, 9])
        #expect(received.map(\.setName) == Array(repeating: "main", count: 7) + ["renamed", "renamed"])
    }

    @Test(arguments: StoreBackend.allCases)
    func observerSeesChangesMadeByAnotherConnection(backend: StoreBackend) async throws {
        let database = try backend.makeDatabase(in: folder)
        let observing = try database.open(options: options)
        let writing = try database.open(options: options)
        let changes = observing.changes(in: "main")
        try runScript(on: writing)
        #expect(try await first(scriptEvents.count, of: changes).map(\.event.ignoringIDs) == scriptEvents)
    }

    @Test(arguments: StoreBackend.allCases)
    func reselectionIsAnEventForObserversInTheSameStore(backend: StoreBackend) async throws {
        let store = try backend.makeDatabase(in: folder).open(options: options)
        try await store.write { try $0.add(["A", "B"], to: "main", creatingSet: true) }
        let changes = store.changes()
        try await store.write { try $0.select(.index(0), in: "main") }
        try await store.write { try $0.select(.index(1), in: "main") }
        let received = try await first(2, of: changes)
        #expect(received.map(\.event.ignoringIDs) == [
            .reselected(TabUpdate(index: 0, tab: Tab(id: .unknown, title: "A", isSelected: true))),
            .selectionChanged([
                TabUpdate(index: 0, tab: Tab(id: .unknown, title: "A", isSelected: false)),
                TabUpdate(index: 1, tab: Tab(id: .unknown, title: "B", isSelected: true)),
            ]),
        ])
        #expect(received.map(\.revision) == [1, 2])
    }

    /// A write with no observer tells no one; an observer that comes after the last one
    /// left hears what follows, a reselection too (never journaled: only a write's own
    /// telling can carry it, not a later read of the journal).
    @Test(arguments: StoreBackend.allCases)
    func anObserverWhoComesAfterTheLastOneLeftHearsWhatFollows(backend: StoreBackend) async throws {
        let store = try backend.makeDatabase(in: folder).open(options: options)
        try await store.write { try $0.add(["Home", "Reviews"], to: "main", creatingSet: true) }
        #expect(!store.hub.hasObservers)
        do {
            let changes = store.changes(in: "main")
            #expect(store.hub.hasObservers)
            try await store.write { try $0.select(.index(1), in: "main") }
            #expect(try await first(1, of: changes).map(\.event.kind) == [.selectionChanged])
        }
        // The stream is gone: its observer leaves (on its own time).
        try await waitFor("the stream's observer to leave") { !store.hub.hasObservers }
        try await store.write { try $0.select(.index(0), in: "main") }
        let changes = store.changes(in: "main")
        try await store.write { try $0.select(.index(0), in: "main") }
        try await store.write { try $0.select(.index(1), in: "main") }
        #expect(try await first(2, of: changes).map(\.event.ignoringIDs) == [
            .reselected(TabUpdate(index: 0, tab: Tab(id: .unknown, title: "Home", isSelected: true))),
            .selectionChanged([
                TabUpdate(index: 0, tab: Tab(id: .unknown, title: "Home", isSelected: false)),
                TabUpdate(index: 1, tab: Tab(id: .unknown, title: "Reviews", isSelected: true)),
            ]),
        ])
    }

    @Test(arguments: StoreBackend.allCases)
    func everyObserverGetsEveryEvent(backend: StoreBackend) async throws {
        let store = try backend.makeDatabase(in: folder).open(options: options)
        let one = store.changes(in: "main")
        let two = store.changes()
        try await store.write { try $0.add(["A"], to: "main", creatingSet: true) }
        try await store.write { try $0.add(["B"], to: "side", creatingSet: true) }
        try await store.write { try $0.add(["C"], to: "main", creatingSet: true) }
        #expect(try await first(2, of: one).map(\.event) == [.added(titles: ["A"], index: 0), .added(titles: ["C"], index: 1)])
        #expect(try await first(3, of: two).map(\.setName) == ["main", "side", "main"])
    }

    @Test(arguments: StoreBackend.allCases)
    func streamsFinishWhenTheStoreIsReleased(backend: StoreBackend) async throws {
        let database = try backend.makeDatabase(in: folder)
        var store: TabStore? = try database.open(options: options)
        let changes = try #require(store).changes(in: "main")
        try await store?.write { try $0.add(["A"], to: "main", creatingSet: true) }
        store = nil
        var received: [TabEvent] = []
        for try await change in changes { received.append(change.event) }
        #expect(received == [.added(titles: ["A"], index: 0)])
    }

    @Test(arguments: StoreBackend.allCases)
    func historyListsTheJournalNewestFirst(backend: StoreBackend) throws {
        let store = try backend.makeDatabase(in: folder).open(options: options)
        try runScript(on: store)
        try store.add(["x"], to: "main", creatingSet: true)
        let history = try store.history(of: "main", limit: 3)
        #expect(history.map(\.event.ignoringIDs) == [.added(titles: ["x"], index: 0), scriptEvents[6], scriptEvents[5]])
        // The name "main" was left at 7 by the rename: the new set goes on from there.
        #expect(history.map(\.revision) == [8, 7, 6])
        #expect(history.allSatisfy { $0.timestamp > 1_700_000_000_000 })
    }

    @Test(arguments: StoreBackend.allCases)
    func staleRevisionIsRefusedAndCurrentOneAccepted(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        let set = try store.add(["A", "B"], to: "main", creatingSet: true)
        try store.select(.index(1), in: "main", ifRevision: set.revision)
        #expect(thrownError { () throws(TabStoreError) in try store.select(.index(0), in: "main", ifRevision: set.revision) }
            == TabStoreError(.revisionMismatch(set: "main", expected: 1, actual: 2)))
        #expect(thrownError { () throws(TabStoreError) in try store.add(["C"], to: "main", ifRevision: 0, creatingSet: true) }
            == TabStoreError(.revisionMismatch(set: "main", expected: 0, actual: 2)))
        #expect(try picture(store.tabSet(named: "main")) == ["A", "*B"])
        #expect(thrownError { () throws(TabStoreError) in try store.add(["N"], to: "new", ifRevision: 3, creatingSet: true) }
            == TabStoreError(.missingSetRevision(set: "new", expected: 3, actual: 0)))
        #expect(try store.tabSets().map(\.name) == ["main"])
        #expect(try store.add(["N"], to: "new", ifRevision: 0, creatingSet: true).revision == 1)
        #expect(TabStoreError(.revisionMismatch(set: "main", expected: 1, actual: 2)).description
            == #"set "main" changed since revision 1 (now 2)"#)
    }
}

/// The first `count` changes of `stream`, or a failure after a minute: a guard against a
/// hang, not a timing (the parallel runner on two cores can keep a task from a thread long).
func first(_ count: Int, of stream: TabStoreStream<TabChange>) async throws -> [TabChange] {
    try await withThrowingTaskGroup(of: [TabChange]?.self) { group in
        group.addTask {
            var received: [TabChange] = []
            for try await change in stream {
                received.append(change)
                if received.count == count { break }
            }
            return received
        }
        group.addTask {
            try await Task.sleep(for: .seconds(60))
            return nil
        }
        let result = try await group.next() ?? nil
        group.cancelAll()
        guard let result else { throw TimedOut(expected: count) }
        return result
    }
}

struct TimedOut: Error, CustomStringConvertible {
    let expected: Int
    var description: String { "fewer than \(expected) changes arrived within 60 s" }
}
