import CSQLite

/// A `tab_set` row joined with its selected tab.
struct SetRecord {
    let id: Int
    let name: String
    let revision: Int
    /// `nil` exactly when the set is empty.
    let selected: TabRecord?
}

extension SetRecord {
    /// Optimistic concurrency: refuses to write over a set someone else changed.
    func require(revision expected: Int?) throws(TabStoreError) {
        if let expected, expected != revision {
            throw .revisionMismatch(set: name, expected: expected, actual: revision)
        }
    }
}

/// A `tab` row; `position` is its 0-based index in the set.
struct TabRecord: Equatable {
    let id: Int
    let position: Int
    let title: String
}

/// The queries the tab rules are built from. Rules live in `TabStore+Editing`;
/// this file only reads and writes rows.
extension Database {
    func setRecord(named name: String) throws(TabStoreError) -> SetRecord? {
        try firstRow(
            """
            SELECT s.id, s.revision, t.id, t.position, t.title
            FROM tab_set s LEFT JOIN tab t ON t.id = s.selected_tab_id
            WHERE s.name = ?
            """, .text(name)
        ) { row in
            SetRecord(
                id: row.int(0), name: name, revision: row.int(1),
                selected: row.optionalInt(2).map { TabRecord(id: $0, position: row.int(3), title: row.text(4)) }
            )
        }
    }

    /// The set, which must exist and, when `revision` is given, be at that revision.
    func requireSet(named name: String, ifRevision revision: Int? = nil) throws(TabStoreError) -> SetRecord {
        guard let record = try setRecord(named: name) else { throw .setNotFound(set: name) }
        try record.require(revision: revision)
        return record
    }

    /// Creates an empty set with revision 0.
    func createSet(named name: String) throws(TabStoreError) -> SetRecord {
        try validSetName(name)
        try execute("INSERT INTO tab_set (name) VALUES (?)", .text(name))
        return SetRecord(id: lastInsertedID, name: name, revision: 0, selected: nil)
    }

    /// The set, created when missing (a missing set counts as revision 0).
    func setOrNew(named name: String, ifRevision revision: Int? = nil) throws(TabStoreError) -> SetRecord {
        guard let set = try setRecord(named: name) else { return try createSet(named: name) }
        try set.require(revision: revision)
        return set
    }

    /// Positions are contiguous, so the count is the last position + 1: an index
    /// lookup, not a scan, even for a set of 10,000 tabs.
    func tabCount(inSet setID: Int) throws(TabStoreError) -> Int {
        try firstRow("SELECT max(position) FROM tab WHERE set_id = ?", .int(setID)) { row in
            row.optionalInt(0).map { $0 + 1 } ?? 0
        } ?? 0
    }

    func tab(at position: Int, inSet setID: Int) throws(TabStoreError) -> TabRecord? {
        try firstRow("SELECT id, title FROM tab WHERE set_id = ? AND position = ?", .int(setID), .int(position)) {
            TabRecord(id: $0.int(0), position: position, title: $0.text(1))
        }
    }

    func tab(titled title: String, inSet setID: Int) throws(TabStoreError) -> TabRecord? {
        try firstRow("SELECT id, position FROM tab WHERE set_id = ? AND title = ?", .int(setID), .text(title)) {
            TabRecord(id: $0.int(0), position: $0.int(1), title: title)
        }
    }

    /// All tabs of a set, in order.
    func tabs(inSet setID: Int) throws(TabStoreError) -> [TabRecord] {
        var tabs: [TabRecord] = []
        try forEachRow("SELECT id, position, title FROM tab WHERE set_id = ? ORDER BY position", .int(setID)) { row in
            tabs.append(TabRecord(id: row.int(0), position: row.int(1), title: row.text(2)))
        }
        return tabs
    }

    /// Inserts `titles` at `position` and on, shifting the tabs from there right.
    /// Returns the new tabs' ids, in order.
    @discardableResult
    func insertTabs(_ titles: [String], at position: Int, inSet setID: Int) throws(TabStoreError) -> [Int] {
        if !titles.isEmpty {
            try shiftPositions(inSet: setID, from: position, through: Int.max, by: titles.count)
        }
        var ids: [Int] = []
        ids.reserveCapacity(titles.count)
        for (offset, title) in titles.enumerated() {
            try execute(
                "INSERT INTO tab (set_id, position, title) VALUES (?, ?, ?)",
                .int(setID), .int(position + offset), .text(title)
            )
            ids.append(lastInsertedID)
        }
        return ids
    }

    /// Adds `delta` to the position of every tab in `first...last`.
    func shiftPositions(inSet setID: Int, from first: Int, through last: Int, by delta: Int) throws(TabStoreError) {
        try execute(
            "UPDATE tab SET position = position + ? WHERE set_id = ? AND position BETWEEN ? AND ?",
            .int(delta), .int(setID), .int(first), .int(last)
        )
    }

    /// Renumbers the tabs after `position` to follow it contiguously (after removals).
    func closeGaps(inSet setID: Int, after position: Int) throws(TabStoreError) {
        try execute(
            """
            UPDATE tab SET position = numbered.position
            FROM (SELECT id, ?2 + row_number() OVER (ORDER BY position) - 1 AS position
                  FROM tab WHERE set_id = ?1 AND position >= ?2) AS numbered
            WHERE tab.id = numbered.id AND tab.position != numbered.position
            """, .int(setID), .int(position)
        )
    }

    /// Records a change: the revision grows, the selection is set (nil: no tab) and
    /// the event goes into the journal.
    func commitChange(to set: SetRecord, selectedTabID: Int?, event: TabEvent) throws(TabStoreError) {
        try execute(
            "UPDATE tab_set SET revision = revision + 1, selected_tab_id = ? WHERE id = ?",
            selectedTabID.map(SQLValue.int) ?? .null, .int(set.id)
        )
        try record(event, set: set.name, revision: set.revision + 1)
    }

    var lastInsertedID: Int { Int(sqlite3_last_insert_rowid(handle)) }
}
