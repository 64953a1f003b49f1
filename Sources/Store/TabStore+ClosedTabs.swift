/// Removed tabs are remembered per set, most recent first, so `reopen` can bring
/// the last one back where it was, as a browser does.
extension TabStore {
    /// Puts the most recently removed tab back at its old index (clamped to the end),
    /// selected again if it was selected when removed (or if the set is empty).
    ///
    /// Tabs removed together come back lowest index first, so reopening each of them
    /// in turn restores the set as it was. A removed tab whose title is back in the set
    /// is forgotten, so it never blocks the others.
    ///
    /// - Throws: `TabStoreError.Code.setNotFound`, `.noClosedTabs`, `.revisionMismatch`.
    @discardableResult
    public func reopen(in setName: String, ifRevision: Int? = nil) throws(TabStoreError) -> TabSetEdit {
        try perform(ReopenRule(in: setName, ifRevision: ifRevision))
    }

    /// Titles of the removed tabs a set remembers, most recent first.
    public func closedTabs(in setName: String) throws(TabStoreError) -> [String] {
        try reading { database throws(TabStoreError) in
            try database.closedTabTitles(of: database.requireSet(named: setName))
        }
    }
}
