/// SwiftUI's `onMove(perform:)` moves as `TabStore` edits.
extension TabStore {
    /// Moves the tabs at `offsets` so that they stand, in their order, before the tab that
    /// was at `destination` (`count` for the end): SwiftUI's `onMove(fromOffsets:toOffset:)`
    /// meaning. From SwiftUI, pass `Array(indexSet)`:
    /// ```swift
    /// .onMove { try? store.move(fromOffsets: Array($0), toOffset: $1, in: "main") }
    /// ```
    /// Each tab that changes place is one `.moved` change (journaled, observed, one
    /// revision each), all in one transaction; the selection stays on the same tab.
    ///
    /// - Returns: the set as it now stands and the last `.moved` event (`nil` when nothing moved).
    /// - Throws: `TabStoreError.indexOutOfRange` for an offset or destination outside the
    ///   set (`0..<count`, and `0...count` for `destination`), `.setNotFound`, `.revisionMismatch`.
    @discardableResult
    public func move(
        fromOffsets offsets: some Sequence<Int>, toOffset destination: Int, in setName: String, ifRevision: Int? = nil
    ) throws(TabStoreError) -> TabSetEdit {
        let sources = Set(offsets).sorted()
        return try writing { database throws(TabStoreError) in
            var set = try database.requireSet(named: setName, ifRevision: ifRevision)
            let count = try database.tabCount(in: set)
            if let bad = sources.first(where: { !(0..<count).contains($0) }) {
                throw .indexOutOfRange(index: bad, count: count, set: setName)
            }
            guard (0...count).contains(destination) else {
                throw .insertionIndexOutOfRange(index: destination, count: count, set: setName)
            }
            // Tabs left of the destination move right, the last first; those right of it
            // move left, the first first: no move disturbs a tab already in its place.
            let left = sources.filter { $0 < destination }
            let right = sources.filter { $0 >= destination }
            var steps: [(from: Int, to: Int)] = []
            for (offset, source) in left.enumerated().reversed() {
                steps.append((source, destination - left.count + offset))
            }
            for (offset, source) in right.enumerated() {
                steps.append((source, destination + offset))
            }
            var lastEvent: TabEvent?
            for step in steps where step.from != step.to {
                guard let tab = try database.tab(at: step.from, in: set) else { continue }
                try database.moveTab(tab, to: step.to, in: &set, count: count)
                let event = TabEvent.moved(title: tab.title, from: step.from, to: step.to)
                try database.commitChange(to: set, selecting: set.selected?.key, event: event)
                set = try database.requireSet(named: setName)
                lastEvent = event
            }
            return try database.edit(of: setName, event: lastEvent)
        }
    }
}
