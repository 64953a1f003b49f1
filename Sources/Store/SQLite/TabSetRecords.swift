extension Statement {
    /// A tab id column; a row without one (edited by hand) reads as `TabID.unknown`.
    func tabID(_ column: Int32) -> TabID {
        optionalText(column).flatMap(TabID.init) ?? .unknown
    }
}

/// The SQLite answers to `TabRecords`' set and tab operations. Rules live in
/// `TabStore+Editing` and `TabRecords+Rules`; this file only reads and writes rows,
/// turning positions into indices and back.
extension Database: TabRecords {
    func setRecord(named name: String) throws(TabStoreError) -> SetRecord? {
        try firstRow(
            """
            SELECT s.id, s.revision, s.base, t.id, t.position - s.base, t.title, t.uuid, t.payload
            FROM tab_set s LEFT JOIN tab t ON t.id = s.selected_tab_id
            WHERE s.name = ?
            """, .text(name)
        ) { row in
            SetRecord(
                id: row.int(0), name: name, revision: row.int(1), base: row.int(2),
                selected: row.optionalInt(3).map {
                    TabRecord(id: $0, index: row.int(4), title: row.text(5), uuid: row.tabID(6), payload: unpackPayload(row.optionalText(7)))
                }
            )
        }
    }

    func insertSet(named name: String, revision: Int) throws(TabStoreError) -> SetRecord {
        try execute("INSERT INTO tab_set (name, revision) VALUES (?, ?)", .text(name), .int(revision))
        return SetRecord(id: lastInsertedID, name: name, revision: revision, base: 0, selected: nil)
    }

    /// The highest revision a set that left `name` (removed, or renamed away) reached; 0 for none.
    func nameRevision(of name: String) throws(TabStoreError) -> Int {
        try firstRow("SELECT revision FROM name_revision WHERE name = ?", .text(name)) { $0.int(0) } ?? 0
    }

    /// Remembers that `name` reached `revision` as its set left it.
    func retire(name: String, at revision: Int) throws(TabStoreError) {
        try execute(
            """
            INSERT INTO name_revision (name, revision) VALUES (?1, ?2)
            ON CONFLICT (name) DO UPDATE SET revision = max(revision, excluded.revision)
            """, .text(name), .int(revision)
        )
    }

    /// Positions are contiguous, so the count comes from the last position: an index
    /// lookup, not a scan, even for a set of 10,000 tabs.
    func tabCount(in set: SetRecord) throws(TabStoreError) -> Int {
        try firstRow("SELECT max(position) FROM tab WHERE set_id = ?", .int(set.id)) { row in
            row.optionalInt(0).map { $0 - set.base + 1 } ?? 0
        } ?? 0
    }

    func tab(at index: Int, in set: SetRecord) throws(TabStoreError) -> TabRecord? {
        try firstRow(
            "SELECT id, title, uuid, payload FROM tab WHERE set_id = ? AND position = ?", .int(set.id), .int(set.base + index)
        ) {
            TabRecord(id: $0.int(0), index: index, title: $0.text(1), uuid: $0.tabID(2), payload: unpackPayload($0.optionalText(3)))
        }
    }

    func tab(titled title: String, in set: SetRecord) throws(TabStoreError) -> TabRecord? {
        try firstRow("SELECT id, position, uuid, payload FROM tab WHERE set_id = ? AND title = ?", .int(set.id), .text(title)) {
            TabRecord(id: $0.int(0), index: $0.int(1) - set.base, title: title, uuid: $0.tabID(2), payload: unpackPayload($0.optionalText(3)))
        }
    }

    func tab(withID uuid: TabID, in set: SetRecord) throws(TabStoreError) -> TabRecord? {
        try firstRow("SELECT id, position, title, payload FROM tab WHERE uuid = ? AND set_id = ?", .text(uuid.uuidString), .int(set.id)) {
            TabRecord(id: $0.int(0), index: $0.int(1) - set.base, title: $0.text(2), uuid: uuid, payload: unpackPayload($0.optionalText(3)))
        }
    }

    /// All tabs of a set, in order.
    func tabs(in set: SetRecord) throws(TabStoreError) -> [TabRecord] {
        var tabs: [TabRecord] = []
        try forEachRow("SELECT id, position, title, uuid, payload FROM tab WHERE set_id = ? ORDER BY position", .int(set.id)) { row in
            tabs.append(TabRecord(
                id: row.int(0), index: row.int(1) - set.base, title: row.text(2), uuid: row.tabID(3), payload: unpackPayload(row.optionalText(4))
            ))
        }
        return tabs
    }

    /// Adds `delta` to the position of the tabs at `indices`.
    func shiftTabs(in set: SetRecord, indices: Range<Int>, by delta: Int) throws(TabStoreError) {
        guard !indices.isEmpty else { return }
        try execute(
            "UPDATE tab SET position = position + ? WHERE set_id = ? AND position >= ? AND position < ?",
            .int(delta), .int(set.id), .int(set.base + indices.lowerBound), .int(set.base + indices.upperBound)
        )
    }

    func setBase(ofSet setID: Int, to base: Int) throws(TabStoreError) {
        try execute("UPDATE tab_set SET base = ? WHERE id = ?", .int(base), .int(setID))
    }

    func setPosition(ofTab id: Int, to position: Int) throws(TabStoreError) {
        try execute("UPDATE tab SET position = ? WHERE id = ?", .int(position), .int(id))
    }

    /// One prepared statement for the whole run, bound again for each tab: looking it up
    /// for each tab made a 100,000-tab import 0.36 of the raw loop (0.45 this way).
    func insertTabRows(
        _ tabs: [NewTab], firstPosition: Int, inSet setID: Int, tabWritten: (() -> Void)?
    ) throws(TabStoreError) -> [TabKey] {
        var keys: [TabKey] = []
        keys.reserveCapacity(tabs.count)
        let insert = try statement("INSERT INTO tab (set_id, position, title, uuid, payload) VALUES (?, ?, ?, ?, ?)")
        for (offset, tab) in tabs.enumerated() {
            try run(insert, [.int(setID), .int(firstPosition + offset), .text(tab.title), .text(tab.uuid.uuidString), SQLValue(packPayload(tab.payload))])
            keys.append(.row(lastInsertedID))
            tabWritten?()
        }
        return keys
    }

    func updateSet(id: Int, revision: Int, selecting tab: TabKey?) throws(TabStoreError) {
        switch tab {
        case let .row(tabID)?:
            try execute("UPDATE tab_set SET revision = ?, selected_tab_id = ? WHERE id = ?", .int(revision), .int(tabID), .int(id))
        case let .uuid(uuid)?:
            try execute(
                "UPDATE tab_set SET revision = ?, selected_tab_id = (SELECT id FROM tab WHERE uuid = ?) WHERE id = ?",
                .int(revision), .text(uuid.uuidString), .int(id)
            )
        case nil:
            try execute("UPDATE tab_set SET revision = ?, selected_tab_id = NULL WHERE id = ?", .int(revision), .int(id))
        }
    }
}

/// Set- and tab-level writes and reads that need no tab rules.
extension Database {
    /// Every set's name, sorted (byte order).
    func setNames() throws(TabStoreError) -> [String] {
        var names: [String] = []
        try forEachRow("SELECT name FROM tab_set ORDER BY name") { names.append($0.text(0)) }
        return names
    }

    func setCount() throws(TabStoreError) -> Int {
        try firstRow("SELECT count(*) FROM tab_set") { $0.int(0) } ?? 0
    }

    func setSummaries() throws(TabStoreError) -> [TabSetSummary] {
        var summaries: [TabSetSummary] = []
        try forEachRow(
            """
            SELECT s.name, s.revision, t.position - s.base, t.title,
                   (SELECT max(position) FROM tab WHERE set_id = s.id) - s.base + 1
            FROM tab_set s LEFT JOIN tab t ON t.id = s.selected_tab_id
            ORDER BY s.name
            """
        ) { row in
            summaries.append(TabSetSummary(
                name: row.text(0), tabCount: row.optionalInt(4) ?? 0,
                selectedIndex: row.optionalInt(2), selectedTitle: row.optionalText(3), revision: row.int(1)
            ))
        }
        return summaries
    }


    /// The name of the set holding the tab with id `uuid`, or nil when no tab has it.
    func nameOfSet(holdingTab uuid: TabID) throws(TabStoreError) -> String? {
        try firstRow(
            "SELECT s.name FROM tab t JOIN tab_set s ON s.id = t.set_id WHERE t.uuid = ?", .text(uuid.uuidString)
        ) { $0.text(0) }
    }

    func renameSet(id: Int, to newName: String) throws(TabStoreError) {
        try execute("UPDATE tab_set SET name = ? WHERE id = ?", .text(newName), .int(id))
    }

    /// Deletes the set row; its tabs and removed tabs go with it (foreign keys cascade).
    func deleteSet(id: Int) throws(TabStoreError) {
        try execute("DELETE FROM tab_set WHERE id = ?", .int(id))
    }

    /// Deletes one tab row; the caller closes the gap it leaves.
    func deleteTab(id: Int) throws(TabStoreError) {
        try execute("DELETE FROM tab WHERE id = ?", .int(id))
    }

    func deleteTabs(ofSet setID: Int) throws(TabStoreError) {
        try execute("DELETE FROM tab WHERE set_id = ?", .int(setID))
    }

    func renameTab(id: Int, to newTitle: String) throws(TabStoreError) {
        try execute("UPDATE tab SET title = ? WHERE id = ?", .text(newTitle), .int(id))
    }

    /// Stores `payload` (an empty one as NULL) for the tab.
    func setPayload(_ payload: [String: String], ofTab id: Int) throws(TabStoreError) {
        try execute("UPDATE tab SET payload = ? WHERE id = ?", SQLValue(packPayload(payload)), .int(id))
    }
}
