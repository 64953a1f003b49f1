import Observation
import Testing
@testable import TabStoreKit

/// The documents' tab bar as an `@Observable` model: values from the store, taps as
/// update pairs, re-taps as reselections, several bars in sync.
@MainActor @Suite struct TabBarModelTests {
    let folder = TemporaryFolder()
    let options = TabStore.Options(durability: .normal)

    /// Waits until `read` gives a value for which `done` holds, woken only by observation.
    private func waitUntil<T>(_ read: @escaping () -> T, _ done: (T) -> Bool) async {
        while !done(read()) {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                withObservationTracking { _ = read() } onChange: { continuation.resume() }
            }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func theModelShowsTheStoredSetAndEachChangeMadeElsewhere() async throws {
        let store = try TabStore(path: folder.file(), options: options)
        try await store.add(["Home", "All menu", "Reviews"], to: "main", creatingSet: true)
        let bar = TabBarModel(store: store, setName: "main")
        await waitUntil({ bar.revision }) { $0 == 1 }
        #expect(bar.tabs.map(\.title) == ["Home", "All menu", "Reviews"])
        #expect(bar.selectedIndex == 0)
        // Another connection, as a widget or the CLI would be.
        let other = try TabStore(path: folder.file(), options: options)
        try await other.select(.index(2), in: "main")
        await waitUntil({ bar.selectedIndex }) { $0 == 2 }
        #expect(bar.tabs.map(\.isSelected) == [false, false, true])
        try await other.renameSet("main", to: "detail")
        await waitUntil({ bar.setName }) { $0 == "detail" }
        #expect(bar.revision == 3)
    }

    @Test func selectReturnsTheOldAndNewTabAndShowsItAtOnce() async throws {
        let store = try TabStore(path: folder.file(), options: options)
        let ids = try await store.add(["Red", "Blue", "Yellow"], to: "colors", creatingSet: true).tabs.map(\.id)
        let bar = TabBarModel(store: store, setName: "colors")
        let change = try await bar.select(1)
        #expect(change.updates == [
            TabUpdate(index: 0, tab: Tab(id: ids[0], title: "Red", isSelected: false)),
            TabUpdate(index: 1, tab: Tab(id: ids[1], title: "Blue", isSelected: true)),
        ])
        #expect(bar.selectedIndex == 1)
        #expect(bar.tabs.map(\.isSelected) == [false, true, false])
        #expect(bar.reselection == nil)
    }

    @Test func aReTapIsAReselectionEachTime() async throws {
        let store = try TabStore(path: folder.file(), options: options)
        let ids = try await store.add(["Red", "Blue"], to: "colors", creatingSet: true).tabs.map(\.id)
        let bar = TabBarModel(store: store, setName: "colors")
        let tracked = Counter()
        withObservationTracking { _ = bar.reselection } onChange: { tracked.increment() }
        let change = try await bar.select(0)
        #expect(change.isReselection)
        #expect(tracked.value == 1)
        #expect(bar.reselection == TabBarModel.Reselection(index: 0, tab: Tab(id: ids[0], title: "Red", isSelected: true), count: 1))
        try await bar.select(0)
        #expect(bar.reselection?.count == 2)
        #expect(try await store.tabSet(named: "colors").revision == 1)
    }

    @Test(.timeLimit(.minutes(1)))
    func twoModelsOfOneSetStayInSync() async throws {
        let store = try TabStore(path: folder.file(), options: options)
        try await store.add(["Red", "Blue", "Yellow"], to: "colors", creatingSet: true)
        let normal = TabBarModel(store: store, setName: "colors")
        let sticky = TabBarModel(store: store, setName: "colors")
        try await normal.select(2)
        await waitUntil({ sticky.selectedIndex }) { $0 == 2 }
        try await sticky.select(1)
        await waitUntil({ normal.selectedIndex }) { $0 == 1 }
        #expect(normal.tabs == sticky.tabs)
        #expect(normal.revision == 3)
        #expect(sticky.revision == 3)
    }

    @Test(.timeLimit(.minutes(1)))
    func aRemovedSetEmptiesTheBar() async throws {
        let store = try TabStore(path: folder.file(), options: options)
        try await store.add(["Red"], to: "colors", creatingSet: true)
        let bar = TabBarModel(store: store, setName: "colors")
        await waitUntil({ bar.revision }) { $0 == 1 }
        try await store.removeSet("colors")
        await waitUntil({ bar.tabs }) { $0.isEmpty }
        #expect(bar.selectedIndex == nil)
    }
}
