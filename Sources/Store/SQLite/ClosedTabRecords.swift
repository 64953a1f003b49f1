// The `closed_tab` rows: removed tabs a set remembers, newest (highest id) first.
// The rules for reopening live in `TabStore+ClosedTabs`.

extension Database {
    /// The most recently removed tab of the set, or nil when it remembers none.
    func lastClosedTab(ofSet setID: Int) throws(TabStoreError) -> ClosedTabRecord? {
        try firstRow(
            "SELECT id, title, position, was_selected, uuid, payload FROM closed_tab WHERE set_id = ? ORDER BY id DESC LIMIT 1",
            .int(setID), row: { row in
                ClosedTabRecord(
                    id: row.int(0), title: row.text(1), position: row.int(2), wasSelected: row.int(3) != 0,
                    uuid: row.optionalText(4).flatMap(TabID.init) ?? TabID(), payload: unpackPayload(row.optionalText(5))
                )
            }
        )
    }

    func deleteClosedTab(id: Int) throws(TabStoreError) {
        try execute("DELETE FROM closed_tab WHERE id = ?", .int(id))
    }

    /// Titles of the removed tabs the set remembers, most recent first.
    func closedTabTitles(ofSet setID: Int) throws(TabStoreError) -> [String] {
        var titles: [String] = []
        try forEachRow("SELECT title FROM closed_tab WHERE set_id = ? ORDER BY id DESC", .int(setID)) {
            titles.append($0.text(0))
        }
        return titles
    }

    /// Forgets removed tabs that had the tab id `uuid` (a tab is back under it).
    func deleteClosedTabs(withID uuid: TabID) throws(TabStoreError) {
        try execute("DELETE FROM closed_tab WHERE uuid = ?", .text(uuid.uuidString))
    }

    func rememberClosed(_ tabs: [(tab: TabRecord, wasSelected: Bool)], inSet setID: Int, limit: Int) throws(TabStoreError) {
        for (tab, wasSelected) in tabs {
            try execute(
                "INSERT INTO closed_tab (set_id, title, position, was_selected, uuid, payload) VALUES (?, ?, ?, ?, ?, ?)",
                .int(setID), .text(tab.title), .int(tab.index), .int(wasSelected ? 1 : 0),
                .text(tab.uuid.uuidString), SQLValue(packPayload(tab.payload))
            )
        }
        try execute(
            """
            DELETE FROM closed_tab WHERE set_id = ?1 AND id NOT IN
                (SELECT id FROM closed_tab WHERE set_id = ?1 ORDER BY id DESC LIMIT ?2)
            """, .int(setID), .int(limit)
        )
    }

    /// Forgets the removed tabs whose title is in the set again: they cannot come back.
    func forgetClosedTabsBackInSet(_ setID: Int) throws(TabStoreError) {
        try execute(
            """
            DELETE FROM closed_tab WHERE set_id = ?1
            AND EXISTS (SELECT 1 FROM tab WHERE tab.set_id = ?1 AND tab.title = closed_tab.title)
            """, .int(setID)
        )
    }
}
