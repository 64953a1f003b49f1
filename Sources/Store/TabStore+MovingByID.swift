/// Moving tabs named by id, for a bar whose offsets were those of the set it showed, which
/// another process may have changed since.
extension TabStore {
    /// Moves the tabs with `ids` (kept in their order in the set) to stand before the tab
    /// `anchor`, or at the end when `anchor` is nil, in one write (`MoveByIDRule`).
    ///
    /// - Throws: `TabStoreError.Code.tabIDNotFound` for an id (or the anchor) not in the set,
    ///   `.setNotFound`, or a database error.
    func move(_ ids: [TabID], before anchor: TabID?, in setName: String) throws(TabStoreError) -> TabSetEdit {
        try perform(MoveByIDRule(ids, before: anchor, in: setName))
    }
}
