import Testing
import TabStoreTestSupport
@testable import TabStoreKit

/// What a `TabBarModel` shows before the store answers is what the store then answers:
/// random selects, moves and closes (the edits it predicts) on random sets, each
/// prediction compared with the set the store's rules made.
@MainActor @Suite struct TabBarPredictionTests {
    @Test(arguments: 1...12)
    func eachPredictionIsWhatTheStoreThenAnswers(seed: UInt64) async throws {
        var random = SplitMix64(seed: seed)
        let store = try TabStore.inMemory(options: TabStore.Options(durability: .normal))
        var made = 0
        func addTabs() async throws {
            let count = 1 + random.below(6)
            let titles = (made..<made + count).map { "T\($0)" }
            made += count
            let index = random.below(2) == 0 ? 0 : -1
            try await store.write { try $0.add(titles, to: "main", at: index, creatingSet: true) }
        }
        try await addTabs()
        let bar = TabBarModel(store: store, setName: "main")
        for step in 0..<40 {
            if bar.tabs.count < 2 { try await addTabs() }
            // The bar shows what is stored before each edit: the added tabs too.
            let stored = try await store.read { try $0.tabSet(named: "main") }
            try await waitFor("the bar to show revision \(stored.revision)") { bar.revision >= stored.revision }
            let count = bar.tabs.count
            let offsets = Set((0..<1 + random.below(3)).map { _ in random.below(count) })
            let predicted: [Tab]
            let answered: [Tab]
            switch random.below(3) {
            case 0:
                let pending = bar.select(bar.tabs[random.below(count)].id)
                predicted = bar.tabs
                answered = try await pending.result.set.tabs
            case 1:
                let pending = bar.move(fromOffsets: offsets, toOffset: random.below(count + 1))
                predicted = bar.tabs
                answered = try await pending.result.tabs
            default:
                let pending = bar.close(atOffsets: offsets)
                predicted = bar.tabs
                answered = try await pending.result.tabs
            }
            #expect(predicted == answered, "seed \(seed), step \(step)")
            #expect(bar.tabs == answered && !bar.hasPendingEdits)
        }
    }
}
