/// Moving tabs named by id, for a bar whose offsets were those of the set it showed,
/// which another process may have changed since: built on the public `move`.
extension TabStore {
    /// Moves the tabs with `ids` (kept in their order in the set) to stand before the tab
    /// `anchor`, or at the end when `anchor` is nil. Reads the set, then moves by its offsets
    /// on condition that it is still at the revision read; again when another connection
    /// committed in between.
    ///
    /// - Throws: `TabStoreError.tabIDNotFound` for an id (or the anchor) not in the set,
    ///   `.setNotFound`, or what `move(fromOffsets:toOffset:in:ifRevision:)` throws.
    func move(_ ids: [TabID], before anchor: TabID?, in setName: String) throws(TabStoreError) -> TabSetEdit {
        var attempts = 0
        while true {
            let set = try tabSet(named: setName)
            func offset(of id: TabID) throws(TabStoreError) -> Int {
                guard let index = set.index(of: id) else { throw .tabIDNotFound(id: id, set: setName) }
                return index
            }
            var offsets: [Int] = []
            for id in ids { offsets.append(try offset(of: id)) }
            let destination = try anchor.map { (id: TabID) throws(TabStoreError) in try offset(of: id) } ?? set.tabs.count
            do {
                return try move(fromOffsets: offsets, toOffset: destination, in: setName, ifRevision: set.revision)
            } catch .revisionMismatch where attempts < 10 {
                attempts += 1
            }
        }
    }
}
