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

    /// Tab ids for `count` tabs, made once: the raw loops write and journal the same ids.
    static func ids(_ count: Int) -> [String] {
        (0..<count).map { _ in TabID().uuidString }
    }

    /// A new raw database at `path` holding the same set as `store(at:)`, its tabs with `ids`.
    static func raw(at path: String, synchronous: String, ids: [String]) throws -> RawTabStore {
        let raw = try RawTabStore(path: path, synchronous: synchronous)
        try raw.insertSets([(PinnedText(setName), titles(ids.count).map(PinnedText.init), ids.map(PinnedText.init), 0)])
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

/// The same through the raw loop, on a set whose first tabs have `ids`.
func rawSelectionsPerSecond(_ raw: RawTabStore, ids: [String], operations: Int) throws -> Double {
    let setName = PinnedText(Fixture.setName)
    let titles = Fixture.titles(2).map(PinnedText.init)
    let idPairs = (0..<2).map { old in (0..<2).map { new in PinnedText(ids[old] + "," + ids[new]) } }
    let elapsed = try seconds {
        for operation in 0..<operations {
            let position = (operation + 1) % 2
            try raw.select(position: Int64(position), in: setName, titles: titles, idPairs: idPairs)
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
