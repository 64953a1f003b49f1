import Testing
@testable import TabStoreKit

/// `observe` hands out the set itself: the current value, then each committed one.
@Suite struct ValueObservationTests {
    let folder = TemporaryFolder()
    let options = TabStore.Options(durability: .normal)

    @Test(arguments: StoreBackend.allCases)
    func theCurrentValueComesFirstThenEachOfThisStoresWritesFollowingARename(backend: StoreBackend) async throws {
        let store = try backend.makeDatabase(in: folder).open(options: options)
        var values = store.observe("main").makeAsyncIterator()
        #expect(try await values.next() == .some(nil))
        try await store.write { try $0.add(["Home", "All menu", "Reviews"], to: "main", creatingSet: true) }
        #expect(try await values.next()?.map(picture) == ["*Home", "All menu", "Reviews"])
        try await store.write { try $0.select(.index(2), in: "main") }
        #expect(try await values.next()?.map(picture) == ["Home", "All menu", "*Reviews"])
        try await store.write { try $0.add(["other"], to: "elsewhere", creatingSet: true) }  // another set: no value
        try await store.write { try $0.renameSet("main", to: "renamed") }
        let renamed = try await values.next()
        #expect(renamed??.name == "renamed")
        #expect(renamed??.revision == 3)
        try await store.write { try $0.removeSet("renamed") }
        #expect(try await values.next() == .some(nil))
        try await store.write { try $0.add(["Back"], to: "renamed", creatingSet: true) }
        #expect(try await values.next()?.map(picture) == ["*Back"])
    }

    @Test(arguments: StoreBackend.allCases)
    func aSlowObserverGetsTheNewestValueNotABacklog(backend: StoreBackend) async throws {
        let store = try backend.makeDatabase(in: folder).open(options: options)
        try await store.write { try $0.add(["A", "B", "C"], to: "main", creatingSet: true) }
        var values = store.observe("main").makeAsyncIterator()
        #expect(try await values.next()??.revision == 1)
        for index in [1, 2, 0, 1] { try await store.write { try $0.select(.index(index), in: "main") } }
        let newest = try await values.next()
        #expect(newest??.revision == 5)
        #expect(newest?.map(picture) == ["A", "*B", "C"])
    }

    @Test(arguments: StoreBackend.allCases)
    func aReselectionIsNoNewValue(backend: StoreBackend) async throws {
        let store = try backend.makeDatabase(in: folder).open(options: options)
        try await store.write { try $0.add(["A", "B"], to: "main", creatingSet: true) }
        var values = store.observe("main").makeAsyncIterator()
        #expect(try await values.next()??.revision == 1)
        try await store.write { try $0.select(.index(0), in: "main") }
        try await store.write { try $0.select(.index(1), in: "main") }
        #expect(try await values.next()??.revision == 2)
    }

    /// The poll interval is ten minutes: only a file-system notification can bring the
    /// values in time, so this shows the notifications work.
    @Test(.timeLimit(.minutes(5)))
    func anotherConnectionsEditsArriveAsValuesInOrderWithNoneLost() async throws {
        let path = folder.file()
        let slowPolling = TabStore.Options(durability: .normal, changePollInterval: .seconds(600))
        let observing = try TabStore(path: path, options: slowPolling)
        let writing = try TabStore(path: path, options: slowPolling)
        var values = observing.observe("main").makeAsyncIterator()
        #expect(try await values.next() == .some(nil))
        #expect(observing.hub.isWatchingFiles)
        let edits: [(TabStore) throws -> Void] = [
            { try $0.add(["A", "B", "C"], to: "main", creatingSet: true) },
            { try $0.select(.index(2), in: "main") },
            { try $0.move(.index(2), to: 0, in: "main") },
            { try $0.remove([.index(1)], from: "main") },
            { try $0.reopen(in: "main") },
        ]
        var received: [[String]] = []
        for edit in edits {
            try edit(writing)
            received.append(try await values.next()?.map(picture) ?? [])
        }
        #expect(received == [
            ["*A", "B", "C"], ["A", "B", "*C"], ["*C", "A", "B"], ["*C", "B"], ["*C", "A", "B"],
        ])
    }

    @Test(arguments: StoreBackend.allCases)
    func observeSetsGivesTheListAfterEachChange(backend: StoreBackend) async throws {
        let store = try backend.makeDatabase(in: folder).open(options: options)
        var lists = store.observeSets().makeAsyncIterator()
        #expect(try await lists.next() == [])
        try await store.write { try $0.add(["A", "B"], to: "main", creatingSet: true) }
        #expect(try await lists.next()?.map(\.name) == ["main"])
        try await store.write { try $0.add(["x"], to: "aside", creatingSet: true) }
        #expect(try await lists.next()?.map(\.name) == ["aside", "main"])
        try await store.write { try $0.select(.index(1), in: "main") }
        #expect(try await lists.next()?.map(\.selectedTitle) == ["x", "B"])
        try await store.write { try $0.removeSet("aside") }
        #expect(try await lists.next()?.map(\.name) == ["main"])
    }

    @Test func anInMemoryStoreIsObservedToo() async throws {
        let store = try TabStore.inMemory()
        var values = store.observe("main").makeAsyncIterator()
        #expect(try await values.next() == .some(nil))
        try await store.write { try $0.add(["A"], to: "main", creatingSet: true) }
        #expect(try await values.next()?.map(picture) == ["*A"])
        #expect(!store.hub.isWatchingFiles)
    }
}
