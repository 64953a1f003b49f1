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

/// Selections per second through `TabStore.select` (see `storeSelections`).
/// `operations` is even, so the set ends as it began.
func storeSelectionsPerSecond(_ store: TabStore, operations: Int) throws -> Double {
    let elapsed = try seconds { try storeSelections(store, 0..<operations) }
    return Double(operations) / elapsed
}

/// Operation k selects tab (k + 1) % 2 through `TabStore.select`, so that every call is
/// a real change (a reselection writes nothing), wherever a run of operations starts.
func storeSelections(_ store: TabStore, _ operations: Range<Int>) throws {
    for operation in operations {
        try store.select(.index((operation + 1) % 2), in: Fixture.setName)
    }
}

/// The same selections through the raw loop, on a set whose first tabs have `ids`: what
/// the loop binds is pinned once, outside any timing.
struct RawSelections {
    private let raw: RawTabStore
    private let setName = PinnedText(Fixture.setName)
    private let titles = Fixture.titles(2).map(PinnedText.init)
    private let idPairs: [[PinnedText]]

    /// A new raw database at `path` holding the set `Fixture.store(at:)` makes, its tabs with `ids`.
    init(at path: String, synchronous: String, ids: [String]) throws {
        raw = try Fixture.raw(at: path, synchronous: synchronous, ids: ids)
        idPairs = (0..<2).map { old in (0..<2).map { new in PinnedText(ids[old] + "," + ids[new]) } }
    }

    /// As `storeSelections`, with the same statements.
    func select(_ operations: Range<Int>) throws {
        for operation in operations {
            try raw.select(position: Int64((operation + 1) % 2), in: setName, titles: titles, idPairs: idPairs)
        }
    }

    /// The floor: only the lookup and the selection's update.
    func selectOnly(_ operations: Range<Int>) throws {
        for operation in operations {
            try raw.selectOnly(position: Int64((operation + 1) % 2), in: setName)
        }
    }
}
