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
            guard let closed = try database.firstRow(
                "SELECT id, title, position, was_selected, uuid, payload FROM closed_tab WHERE set_id = ? ORDER BY id DESC LIMIT 1",
                .int(set.id), row: { row in
                    (id: row.int(0), title: row.text(1), position: row.int(2), wasSelected: row.int(3) != 0,
                     uuid: row.optionalText(4).flatMap(TabID.init) ?? TabID(), payload: unpackPayload(row.optionalText(5)))
                }
            ) else { throw .noClosedTabs(set: setName) }
            let count = try database.tabCount(in: set)
            let position = min(closed.position, count)
            // The same tab comes back: its id and payload with it.
            let ids = try database.insertTabs(
                [NewTab(title: closed.title, uuid: closed.uuid, payload: closed.payload)], at: position, in: &set, count: count
            )
            try database.execute("DELETE FROM closed_tab WHERE id = ?", .int(closed.id))
            let reselect = closed.wasSelected || set.selected == nil
            let event = TabEvent.reopened(TabUpdate(index: position, tab: Tab(id: closed.uuid, title: closed.title, isSelected: reselect)))
            try database.commitChange(to: set, selectedTabID: reselect ? ids.first : set.selected?.id, event: event)
            return try database.edit(of: setName, event: event)
        }
    }

    /// Titles of the removed tabs a set remembers, most recent first.
    public func closedTabs(in setName: String) throws(TabStoreError) -> [String] {
        try withDatabase { database throws(TabStoreError) in
            let set = try database.requireSet(named: setName)
            var titles: [String] = []
            try database.forEachRow("SELECT title FROM closed_tab WHERE set_id = ? ORDER BY id DESC", .int(set.id)) {
                titles.append($0.text(0))
            }
            return titles
        }
    }
}

extension Database {
    /// Records removed tabs and forgets the oldest beyond `limit`. Tabs removed together
    /// are recorded from the highest index down, so the lowest reopens first: at its
    /// old index, every tab that stood before it is back.
    func rememberClosed(_ tabs: [TabRecord], selectedID: Int?, inSet setID: Int, limit: Int) throws(TabStoreError) {
        for tab in tabs.sorted(by: { $0.index > $1.index }) {
            try execute(
                "INSERT INTO closed_tab (set_id, title, position, was_selected, uuid, payload) VALUES (?, ?, ?, ?, ?, ?)",
                .int(setID), .text(tab.title), .int(tab.index), .int(tab.id == selectedID ? 1 : 0),
                .text(tab.uuid.uuidString), SQLValue(packPayload(tab.payload))
            )
        }
        try execute(
            """
            DELETE FROM closed_tab WHERE set_id = ?1 AND id NOT IN
                (SELECT id FROM closed_tab WHERE set_id = ?1 ORDER BY id DESC LIMIT ?2)
            """, .int(setID), .int(max(limit, 0))
        )
    }
}

extension Database {
    /// Forgets the removed tabs whose title is in the set again: they cannot come back.
    func forgetClosedTabsBackInSet(_ set: SetRecord) throws(TabStoreError) {
        try execute(
            """
            DELETE FROM closed_tab WHERE set_id = ?1
            AND EXISTS (SELECT 1 FROM tab WHERE tab.set_id = ?1 AND tab.title = closed_tab.title)
            """, .int(set.id)
        )
    }
}
