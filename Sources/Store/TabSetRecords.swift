/// A `tab_set` row joined with its selected tab.
struct SetRecord {
    let id: Int
    let name: String
    let revision: Int
    /// The position of the tab at index 0 (see migration 0004); edits may move it.
    var base: Int
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

/// A `tab` row; `index` is its 0-based place in the set (its position less the base).
/// `id` is the row id; `uuid` the tab's public, stable id.
struct TabRecord: Equatable {
    let id: Int
    let index: Int
    let title: String
    let uuid: TabID
    let payload: [String: String]

    /// The public value, as the set shows it.
    func tab(selected: Bool) -> Tab {
        Tab(id: uuid, title: title, isSelected: selected, payload: payload)
    }

    /// The value events carry: no payload (see `Tab.payload`).
    func eventTab(selected: Bool) -> Tab {
        Tab(id: uuid, title: title, isSelected: selected)
    }
}

/// A tab about to be inserted: a new one (fresh id) or one coming back with its id.
struct NewTab {
    let title: String
    var uuid = TabID()
    var payload: [String: String] = [:]
}

extension Statement {
    /// A tab id column; a row without one (edited by hand) reads as `TabID.unknown`.
    func tabID(_ column: Int32) -> TabID {
        optionalText(column).flatMap(TabID.init) ?? .unknown
    }
}

/// The queries the tab rules are built from. Rules live in `TabStore+Editing`;
/// this file only reads and writes rows, turning positions into indices and back.
extension Database {
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

    /// The set, which must exist and, when `revision` is given, be at that revision.
    func requireSet(named name: String, ifRevision revision: Int? = nil) throws(TabStoreError) -> SetRecord {
        guard let record = try setRecord(named: name) else { throw .setNotFound(set: name) }
        try record.require(revision: revision)
        return record
    }

    /// Creates an empty set at the revision its name last reached (0 for a new name),
    /// so that its first change gets a revision never seen for the name.
    func createSet(named name: String) throws(TabStoreError) -> SetRecord {
        try validSetName(name)
        let revision = try nameRevision(of: name)
        try execute("INSERT INTO tab_set (name, revision) VALUES (?, ?)", .text(name), .int(revision))
        return SetRecord(id: lastInsertedID, name: name, revision: revision, base: 0, selected: nil)
    }

    /// The set, created when missing. A missing set is at the revision its name last
    /// reached, so `revision` guards a removed and re-created set too.
    func setOrNew(
        named name: String, ifRevision revision: Int? = nil
    ) throws(TabStoreError) -> (set: SetRecord, isNew: Bool) {
        if let existing = try setRecord(named: name) {
            try existing.require(revision: revision)
            return (existing, false)
        }
        let created = try createSet(named: name)
        if let revision, revision != created.revision {
            throw .missingSetRevision(set: name, expected: revision, actual: created.revision)
        }
        return (created, true)
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

    /// Inserts `titles` before index `index` of a set of `count` tabs, calling `tabWritten`
    /// after each. Returns the new tabs' row ids, in order.
    @discardableResult
    func insertTabs(_ titles: [NewTab], at index: Int, in set: inout SetRecord, count: Int, tabWritten: (() -> Void)? = nil) throws(TabStoreError) -> [Int] {
        guard !titles.isEmpty else { return [] }
        // Make room on the side with fewer tabs: appending or prepending moves none.
        if index < count - index {
            try shiftTabs(in: set, indices: 0..<index, by: -titles.count)
            try setBase(of: &set, to: set.base - titles.count)
        } else {
            try shiftTabs(in: set, indices: index..<count, by: titles.count)
        }
        var ids: [Int] = []
        ids.reserveCapacity(titles.count)
        let insert = try statement("INSERT INTO tab (set_id, position, title, uuid, payload) VALUES (?, ?, ?, ?, ?)")
        for (offset, tab) in titles.enumerated() {
            try run(insert, [.int(set.id), .int(set.base + index + offset), .text(tab.title), .text(tab.uuid.uuidString), SQLValue(packPayload(tab.payload))])
            ids.append(lastInsertedID)
            tabWritten?()
        }
        try forgetClosedTabsBackInSet(set)
        return ids
    }

    /// Closes the holes that removing the tabs at `removed` (sorted, distinct indices of
    /// a set that had `count` tabs) left, shifting the side with fewer tabs.
    func closeGaps(at removed: [Int], in set: inout SetRecord, count: Int) throws(TabStoreError) {
        guard let first = removed.first, let last = removed.last else { return }
        let rightSurvivors = count - first - removed.count
        let leftSurvivors = last - (removed.count - 1)
        if leftSurvivors < rightSurvivors {
            // Each run of tabs left of a hole moves right by the holes to its right.
            for (offset, hole) in removed.enumerated().reversed() {
                let start = offset == 0 ? 0 : removed[offset - 1] + 1
                try shiftTabs(in: set, indices: start..<hole, by: removed.count - offset)
            }
            try setBase(of: &set, to: set.base + removed.count)
        } else {
            // Each run of tabs right of a hole moves left by the holes to its left.
            for (offset, hole) in removed.enumerated() {
                let end = offset + 1 < removed.count ? removed[offset + 1] : count
                try shiftTabs(in: set, indices: hole + 1..<end, by: -(offset + 1))
            }
        }
    }

    /// Moves the tab at index `from` to index `to` in a set of `count` tabs: either the
    /// tabs between the two shift by one, or those outside them do, whichever are fewer.
    func moveTab(_ tab: TabRecord, to target: Int, in set: inout SetRecord, count: Int) throws(TabStoreError) {
        let from = tab.index
        let between = abs(target - from)
        let outside = min(from, target) + (count - 1 - max(from, target))
        let step = target > from ? 1 : -1
        if between <= outside {
            let range = target > from ? from + 1..<target + 1 : target..<from
            try shiftTabs(in: set, indices: range, by: -step)
        } else {
            try shiftTabs(in: set, indices: 0..<min(from, target), by: step)
            try shiftTabs(in: set, indices: max(from, target) + 1..<count, by: step)
            try setBase(of: &set, to: set.base + step)
        }
        try execute("UPDATE tab SET position = ? WHERE id = ?", .int(set.base + target), .int(tab.id))
    }

    /// Adds `delta` to the position of the tabs at `indices`.
    private func shiftTabs(in set: SetRecord, indices: Range<Int>, by delta: Int) throws(TabStoreError) {
        guard !indices.isEmpty else { return }
        try execute(
            "UPDATE tab SET position = position + ? WHERE set_id = ? AND position >= ? AND position < ?",
            .int(delta), .int(set.id), .int(set.base + indices.lowerBound), .int(set.base + indices.upperBound)
        )
    }

    private func setBase(of set: inout SetRecord, to base: Int) throws(TabStoreError) {
        try execute("UPDATE tab_set SET base = ? WHERE id = ?", .int(base), .int(set.id))
        set.base = base
    }

    /// Records a change: the revision grows (to `revision` when given, else by one),
    /// the selection is set (nil: no tab) and the event goes into the journal.
    func commitChange(
        to set: SetRecord, selectedTabID: Int?, event: TabEvent, revision: Int? = nil
    ) throws(TabStoreError) {
        let newRevision = revision ?? set.revision + 1
        try execute(
            "UPDATE tab_set SET revision = ?, selected_tab_id = ? WHERE id = ?",
            .int(newRevision), selectedTabID.map(SQLValue.int) ?? .null, .int(set.id)
        )
        try record(event, set: set.name, setID: set.id, revision: newRevision)
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
