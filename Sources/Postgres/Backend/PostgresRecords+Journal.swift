import TabStoreKit

// Removed tabs and the change journal on the server.
extension PostgresRecords {
    func lastClosedTab(ofSet setID: Int) throws(TabStoreError) -> ClosedTabRecord? {
        if let cached = lockedSet(id: setID)?.lastClosed { return cached }
        return Self.closedTab(try query(
            "SELECT id, title, position, was_selected, uuid, payload FROM closed_tab WHERE set_id = $1 ORDER BY id DESC LIMIT 1",
            [setID.text]
        ))
    }

    /// The first row of (id, title, position, was_selected, uuid, payload), if any.
    static func closedTab(_ rows: PostgresRows) -> ClosedTabRecord? {
        guard rows.count > 0 else { return nil }
        return ClosedTabRecord(
            id: rows.requiredInt(0, 0), title: rows.text(0, 1), position: rows.requiredInt(0, 2),
            wasSelected: rows.requiredInt(0, 3) != 0, uuid: rows.value(0, 4).flatMap(TabID.init) ?? TabID(),
            payload: unpackPayload(rows.value(0, 5))
        )
    }

    /// A write to removed tabs: no cached newest removed tab can be trusted.
    private func closedTabsChanged() {
        for name in locked.keys { locked[name]?.lastClosed = nil }
    }

    func deleteClosedTab(id: Int) throws(TabStoreError) {
        enqueue("DELETE FROM closed_tab WHERE id = $1", [id.text])
        closedTabsChanged()
    }

    func closedTabTitles(ofSet setID: Int) throws(TabStoreError) -> [String] {
        let rows = try query("SELECT title FROM closed_tab WHERE set_id = $1 ORDER BY id DESC", [setID.text])
        return (0..<rows.count).map { rows.text($0, 0) }
    }

    func deleteClosedTabs(withID uuid: TabID) throws(TabStoreError) {
        enqueue("DELETE FROM closed_tab WHERE uuid = $1", [uuid.uuidString])
        closedTabsChanged()
    }

    func rememberClosed(_ tabs: [(tab: TabRecord, wasSelected: Bool)], inSet setID: Int, limit: Int) throws(TabStoreError) {
        for (tab, wasSelected) in tabs {
            enqueue(
                "INSERT INTO closed_tab (set_id, title, position, was_selected, uuid, payload) VALUES ($1, $2, $3, $4, $5, $6)",
                [setID.text, tab.title, tab.index.text, wasSelected ? "1" : "0", tab.uuid.uuidString, packPayload(tab.payload)]
            )
        }
        enqueue(
            """
            DELETE FROM closed_tab WHERE set_id = $1 AND id NOT IN
                (SELECT id FROM closed_tab WHERE set_id = $1 ORDER BY id DESC LIMIT $2)
            """, [setID.text, limit.text]
        )
        closedTabsChanged()
    }

    func forgetClosedTabsBackInSet(_ setID: Int) throws(TabStoreError) {
        enqueue(
            """
            DELETE FROM closed_tab WHERE set_id = $1
            AND EXISTS (SELECT 1 FROM tab WHERE tab.set_id = $1 AND tab.title = closed_tab.title)
            """, [setID.text]
        )
        closedTabsChanged()
    }

    // MARK: The journal

    /// Journal ids must grow in commit order, or a reader that has seen id 12 would skip
    /// an id 11 committed after it. A transaction-level advisory lock taken just before
    /// the insert serializes the inserts to the commit (the lock is released only after
    /// the commit is visible); it is held for the rest of one round trip.
    static let journalLock = "SELECT pg_advisory_xact_lock(7419633)"

    func record(_ event: TabEvent, set setName: String, setID: Int?, revision: Int) throws(TabStoreError) {
        let row = JournalRow(event)
        enqueue(Self.journalLock, [], isWrite: false)
        // Trim now and then, not on every write: the journal may run 1% over its limit.
        enqueue(
            """
            WITH added AS (
                INSERT INTO change (set_name, revision, kind, at, set_id, tab_index, from_index, to_index,
                                    title, new_title, tab_count, selected, titles, indices, tab_ids)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id
            )
            DELETE FROM change WHERE (SELECT id % 100 FROM added) = 0 AND id <= (SELECT id FROM added) - 10000
            """,
            [
                setName, revision.text, event.kind.rawValue, currentTimestamp().text, setID?.text,
                row.tabIndex?.text, row.fromIndex?.text, row.toIndex?.text, row.title, row.newTitle,
                row.tabCount?.text, row.selected.map { $0 ? "1" : "0" }, row.packedTitles, row.packedIndices, row.packedTabIDs,
            ]
        )
        // A hint for listeners in other processes; sent once per transaction however
        // many changes it holds (NOTIFY folds identical ones).
        enqueue("SELECT pg_notify('tabstore_changes', '')", [], isWrite: false)
    }

    func forgetSetID(_ setID: Int) throws(TabStoreError) {
        enqueue("UPDATE change SET set_id = NULL WHERE set_id = $1", [setID.text])
    }

    /// Columns in the order `change(from:)` reads them.
    private static let changeColumns = """
        SELECT id, set_name, revision, kind, at, tab_index, from_index, to_index,
               title, new_title, tab_count, selected, titles, indices, tab_ids FROM change
        """

    func changes(after id: Int) throws(TabStoreError) -> [(id: Int, change: TabChange)] {
        let rows = try query(Self.changeColumns + " WHERE id > $1 ORDER BY id", [id.text])
        return (0..<rows.count).compactMap { row in Self.change(rows, row).map { (rows.requiredInt(row, 0), $0) } }
    }

    func history(ofSet setName: String, limit: Int) throws(TabStoreError) -> [TabChange] {
        if cannotBeStored(setName) { return [] }
        let renamed = try query(
            """
            SELECT s.id FROM tab_set s WHERE s.name = $1
            AND EXISTS (SELECT 1 FROM change WHERE set_id = s.id AND kind = $2)
            """, [setName, TabEvent.Kind.setRenamed.rawValue]
        )
        let rows = if let setID = renamed.int(0, 0) {
            try query(Self.changeColumns + " WHERE set_id = $1 ORDER BY id DESC LIMIT $2", [setID.text, limit.text])
        } else {
            try query(Self.changeColumns + " WHERE set_name = $1 ORDER BY id DESC LIMIT $2", [setName, limit.text])
        }
        return (0..<rows.count).compactMap { Self.change(rows, $0) }
    }

    func lastChangeID() throws(TabStoreError) -> Int {
        try query("SELECT coalesce(max(id), 0) FROM change").requiredInt(0, 0)
    }

    /// A journal row read back; `nil` for a row this binary cannot read (skipped, not fatal).
    private static func change(_ rows: PostgresRows, _ row: Int) -> TabChange? {
        guard let kind = TabEvent.Kind(rawValue: rows.text(row, 3)) else { return nil }
        let columns = JournalRow(
            tabIndex: rows.int(row, 5), fromIndex: rows.int(row, 6), toIndex: rows.int(row, 7),
            title: rows.value(row, 8), newTitle: rows.value(row, 9), tabCount: rows.int(row, 10),
            selected: rows.int(row, 11).map { $0 != 0 },
            titles: rows.value(row, 12).map(JournalRow.unpackTitles),
            indices: rows.value(row, 13).flatMap(JournalRow.unpackIndices),
            tabIDs: rows.value(row, 14).map(JournalRow.unpackTabIDs)
        )
        guard let event = columns.event(kind) else { return nil }
        return TabChange(setName: rows.text(row, 1), revision: rows.requiredInt(row, 2), event: event, timestamp: rows.requiredInt(row, 4))
    }
}
