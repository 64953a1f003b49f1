import TabStoreKit

/// The set most figures work on: a tab bar of `count` tabs, the first one selected.
enum Fixture {
    static let setName = "bench"

    static func titles(_ count: Int, prefix: String = "Tab") -> [String] {
        (0..<count).map { "\(prefix) \($0)" }
    }

    /// A new store at `path` holding `setName` with `tabCount` tabs.
    static func store(at path: String, durability: TabStore.Options.Durability = .full, tabCount: Int = 10) throws -> TabStore {
        let store = try TabStore(path: path, options: .init(durability: durability))
        try store.add(titles(tabCount), to: setName, creatingSet: true)
        return store
    }

    /// A new raw database at `path` holding the same set as `store(at:)`.
    static func raw(at path: String, synchronous: String, tabCount: Int = 10) throws -> RawTabStore {
        let raw = try RawTabStore(path: path, synchronous: synchronous)
        try raw.insertSets([(PinnedText(setName), titles(tabCount).map(PinnedText.init), 0)])
        return raw
    }
}

/// Selections per second through `TabStore.select`, alternating between the first two
/// tabs so that every call is a real change (a reselection writes nothing).
/// `operations` is even, so the set ends as it began.
func storeSelectionsPerSecond(_ store: TabStore, operations: Int) throws -> Double {
    let elapsed = try seconds {
        for operation in 0..<operations {
            try store.select(.index((operation + 1) % 2), in: Fixture.setName)
        }
    }
    return Double(operations) / elapsed
}

/// The same through the raw loop.
func rawSelectionsPerSecond(_ raw: RawTabStore, operations: Int) throws -> Double {
    let setName = PinnedText(Fixture.setName)
    let titles = Fixture.titles(2).map(PinnedText.init)
    let elapsed = try seconds {
        for operation in 0..<operations {
            let position = (operation + 1) % 2
            try raw.select(position: Int64(position), in: setName, titles: titles)
        }
    }
    return Double(operations) / elapsed
}

/// The same through the loop that only looks up and updates the selection: the floor.
func rawSelectOnlyPerSecond(_ raw: RawTabStore, operations: Int) throws -> Double {
    let setName = PinnedText(Fixture.setName)
    let elapsed = try seconds {
        for operation in 0..<operations {
            try raw.selectOnly(position: Int64((operation + 1) % 2), in: setName)
        }
    }
    return Double(operations) / elapsed
}
