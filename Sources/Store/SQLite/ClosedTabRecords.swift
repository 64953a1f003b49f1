// The `closed_tab` rows: removed tabs a set remembers, newest (highest id) first. The
// rule for reopening is `ReopenRule`; the writes are in SQLitePlan.swift.

extension Database {
    /// The most recently removed tab of the set, or nil when it remembers none.
    func lastClosedTab(of set: SetRecord) throws(TabStoreError) -> ClosedTabRecord? {
        guard let setID = set.id else { return nil }
        return try firstRow(
            "SELECT id, title, position, was_selected, uuid, payload FROM closed_tab WHERE set_id = ? ORDER BY id DESC LIMIT 1",
            [.int(setID)], row: { row in
                ClosedTabRecord(
                    id: row.int(0), title: row.text(1), position: row.int(2), wasSelected: row.int(3) != 0,
                    uuid: row.optionalText(4).flatMap(TabID.init) ?? TabID(), payload: unpackPayload(row.optionalText(5))
                )
            }
        )
    }

    /// Titles of the removed tabs the set remembers, most recent first.
    func closedTabTitles(of set: SetRecord) throws(TabStoreError) -> [String] {
        guard let setID = set.id else { return [] }
        var titles: [String] = []
        try forEachRow("SELECT title FROM closed_tab WHERE set_id = ? ORDER BY id DESC", [.int(setID)]) {
            titles.append($0.text(0))
        }
        return titles
    }
}
