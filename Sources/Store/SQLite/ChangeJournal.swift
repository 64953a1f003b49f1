/// The `change` table: one row per committed change, written in the same
/// transaction as the change itself, in the typed columns of
/// `migrations/0006_typed_journal.sql`.
extension Database {
    /// How many changes the journal keeps in all; older ones are dropped.
    static let journalLimit = 10_000

    /// Journals a change of the set `setID` (nil: of a set no longer there).
    func record(_ event: TabEvent, set setName: String, setID: Int?, revision: Int) throws(TabStoreError) {
        // The time comes from the C library's clock, as for a reselection: SQLite's
        // julianday('now') in the statement cost more than the rest of the row.
        let insert = JournalInsert(
            event, [.text(setName), .int(revision), .text(event.kind.rawValue), .int(currentTimestamp()), SQLValue(setID)]
        )
        try run(statement(insert.sql), insert.values)
        // Trim now and then, not on every write: the journal may run 1% over its limit.
        if lastInsertedID % 100 == 0 {
            try execute("DELETE FROM change WHERE id <= ?", .int(lastInsertedID - Self.journalLimit))
        }
    }

    /// The id of the newest change, 0 when there is none.
    func lastChangeID() throws(TabStoreError) -> Int {
        let newest = try firstRow("SELECT max(id) FROM change") { $0.optionalInt(0) }
        return (newest ?? nil) ?? 0
    }

    // Readers select, in the order `change(from:)` reads them: id, set_name, revision,
    // kind, at, tab_index, from_index, to_index, title, new_title, tab_count, selected,
    // titles, indices, tab_ids. Each statement spells them out: cached SQL is literal text.

    /// Changes after `id`, oldest first, with their ids.
    func changes(after id: Int) throws(TabStoreError) -> [(id: Int, change: TabChange)] {
        var changes: [(id: Int, change: TabChange)] = []
        try forEachRow(
            """
            SELECT id, set_name, revision, kind, at, tab_index, from_index, to_index,
                   title, new_title, tab_count, selected, titles, indices, tab_ids FROM change
            WHERE id > ? ORDER BY id
            """, .int(id)
        ) { row in
            if let change = Self.change(from: row) { changes.append((row.int(0), change)) }
        }
        return changes
    }

    /// The newest `limit` changes of a set, newest first. A set that was renamed has
    /// its own changes, under whichever name; otherwise (and for a name without a set)
    /// the changes journaled under the name, earlier sets of that name included. Either
    /// way each revision appears once, decreasing.
    func history(ofSet setName: String, limit: Int) throws(TabStoreError) -> [TabChange] {
        var changes: [TabChange] = []
        let renamedSetID = try firstRow(
            """
            SELECT s.id FROM tab_set s WHERE s.name = ?
            AND EXISTS (SELECT 1 FROM change WHERE set_id = s.id AND kind = ?)
            """, .text(setName), .text(TabEvent.Kind.setRenamed.rawValue)
        ) { $0.int(0) }
        let collect = { (row: Statement) in
            if let change = Self.change(from: row) { changes.append(change) }
        }
        if let renamedSetID {
            try forEachRow(
                """
                SELECT id, set_name, revision, kind, at, tab_index, from_index, to_index,
                       title, new_title, tab_count, selected, titles, indices, tab_ids FROM change
                WHERE set_id = ? ORDER BY id DESC LIMIT ?
                """, .int(renamedSetID), .int(limit), row: collect
            )
        } else {
            try forEachRow(
                """
                SELECT id, set_name, revision, kind, at, tab_index, from_index, to_index,
                       title, new_title, tab_count, selected, titles, indices, tab_ids FROM change
                WHERE set_name = ? ORDER BY id DESC LIMIT ?
                """, .text(setName), .int(limit), row: collect
            )
        }
        return changes
    }

    /// Unlinks a removed set's changes from its id, which a new set may get.
    func forgetSetID(_ setID: Int) throws(TabStoreError) {
        try execute("UPDATE change SET set_id = NULL WHERE set_id = ?", .int(setID))
    }

    /// A journal row read back (columns as the readers above list them); `nil` for a row this
    /// binary cannot read (skipped, not fatal).
    private static func change(from row: Statement) -> TabChange? {
        guard let kind = TabEvent.Kind(rawValue: row.text(3)) else { return nil }
        let columns = JournalRow(
            tabIndex: row.optionalInt(5), fromIndex: row.optionalInt(6), toIndex: row.optionalInt(7),
            title: row.optionalText(8), newTitle: row.optionalText(9), tabCount: row.optionalInt(10),
            selected: row.optionalInt(11).map { $0 != 0 },
            titles: row.optionalText(12).map(JournalRow.unpackTitles),
            indices: row.optionalText(13).flatMap(JournalRow.unpackIndices),
            tabIDs: row.optionalText(14).map(JournalRow.unpackTabIDs)
        )
        guard let event = columns.event(kind) else { return nil }
        return TabChange(setName: row.text(1), revision: row.int(2), event: event, timestamp: row.int(4))
    }
}

/// The INSERT of one event: set_name, revision, kind, at, set_id, then only the columns
/// its kind fills (as `migrations/0006_typed_journal.sql` lists them). One statement per
/// kind binds no NULLs (the columns come from `JournalRow`); the SQL is literal text, which the statement cache compares
/// fastest.
struct JournalInsert {
    let sql: StaticString
    private(set) var values: [SQLValue]

    /// `common`: the values of set_name, revision, kind, at and set_id.
    init(_ event: TabEvent, _ common: [SQLValue]) {
        let row = JournalRow(event)
        values = common
        values.reserveCapacity(common.count + 4)
        switch event {
        case .added:
            sql = "INSERT INTO change (set_name, revision, kind, at, set_id, tab_index, titles) VALUES (?, ?, ?, ?, ?, ?, ?)"
            values += [SQLValue(row.tabIndex), SQLValue(row.packedTitles)]
        case .removed:
            sql = "INSERT INTO change (set_name, revision, kind, at, set_id, tab_index, titles, indices, tab_ids) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
            values += [SQLValue(row.tabIndex), SQLValue(row.packedTitles), SQLValue(row.packedIndices), SQLValue(row.packedTabIDs)]
        case .moved:
            sql = "INSERT INTO change (set_name, revision, kind, at, set_id, title, from_index, to_index) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            values += [SQLValue(row.title), SQLValue(row.fromIndex), SQLValue(row.toIndex)]
        case .renamed:
            sql = "INSERT INTO change (set_name, revision, kind, at, set_id, tab_index, title, new_title) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            values += [SQLValue(row.tabIndex), SQLValue(row.title), SQLValue(row.newTitle)]
        case .selectionChanged:
            sql = "INSERT INTO change (set_name, revision, kind, at, set_id, from_index, title, to_index, new_title, tab_ids) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            values += [SQLValue(row.fromIndex), SQLValue(row.title), SQLValue(row.toIndex), SQLValue(row.newTitle), SQLValue(row.packedTabIDs)]
        case .reselected, .reopened, .payloadChanged:
            sql = "INSERT INTO change (set_name, revision, kind, at, set_id, tab_index, title, selected, tab_ids) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
            values += [SQLValue(row.tabIndex), SQLValue(row.title), SQLValue(row.selected.map { $0 ? 1 : 0 }), SQLValue(row.packedTabIDs)]
        case .replaced:
            sql = "INSERT INTO change (set_name, revision, kind, at, set_id, tab_count) VALUES (?, ?, ?, ?, ?, ?)"
            values.append(SQLValue(row.tabCount))
        case .setRenamed:
            sql = "INSERT INTO change (set_name, revision, kind, at, set_id, title, new_title) VALUES (?, ?, ?, ?, ?, ?, ?)"
            values += [SQLValue(row.title), SQLValue(row.newTitle)]
        case .setRemoved:
            sql = "INSERT INTO change (set_name, revision, kind, at, set_id) VALUES (?, ?, ?, ?, ?)"
        }
    }
}

extension SQLValue {
    init(_ value: Int?) { self = value.map(SQLValue.int) ?? .null }
    init(_ value: String?) { self = value.map(SQLValue.text) ?? .null }
}
