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
    /// - Throws: `TabStoreError.setNotFound`, `.noClosedTabs`, `.revisionMismatch`.
    @discardableResult
    public func reopen(in setName: String, ifRevision: Int? = nil) throws(TabStoreError) -> TabSetEdit {
        try writing { database throws(TabStoreError) in
            var set = try database.requireSet(named: setName, ifRevision: ifRevision)
            guard let closed = try database.lastClosedTab(ofSet: set.id) else { throw .noClosedTabs(set: setName) }
            let count = try database.tabCount(in: set)
            let position = min(closed.position, count)
            // The same tab comes back: its id and payload with it.
            let ids = try database.insertTabs(
                [NewTab(title: closed.title, uuid: closed.uuid, payload: closed.payload)], at: position, in: &set, count: count
            )
            try database.deleteClosedTab(id: closed.id)
            let reselect = closed.wasSelected || set.selected == nil
            let event = TabEvent.reopened(TabUpdate(index: position, tab: Tab(id: closed.uuid, title: closed.title, isSelected: reselect)))
            try database.commitChange(to: set, selecting: reselect ? ids.first : set.selected?.key, event: event)
            return try database.edit(of: setName, event: event)
        }
    }

    /// Titles of the removed tabs a set remembers, most recent first.
    public func closedTabs(in setName: String) throws(TabStoreError) -> [String] {
        try reading { database throws(TabStoreError) in
            try database.closedTabTitles(ofSet: database.requireSet(named: setName).id)
        }
    }
}
