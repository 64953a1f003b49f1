/// The `change` table: one row per committed change, written in the same transaction as
/// the change itself, in the columns `JournalColumn` declares.
extension Database {
    /// Inserts one journal row and trims the journal now and then.
    func insertJournalRow(_ entry: JournalEntry, setID: Int?) throws(TabStoreError) {
        try execute(Self.insert, entry.cells(setID: setID).map(SQLValue.init))
        if lastInsertedID % JournalLimit.trimEvery == 0 {
            try execute("DELETE FROM change WHERE id <= ?", [.int(lastInsertedID - JournalLimit.changes)])
        }
    }

    private static let insert =
        "INSERT INTO change (\(JournalColumn.names)) VALUES (\(JournalColumn.allCases.map { _ in "?" }.joined(separator: ", ")))"

    /// The id of the newest change, 0 when there is none.
    func lastChangeID() throws(TabStoreError) -> Int {
        let newest = try firstRow("SELECT max(id) FROM change") { $0.optionalInt(0) }
        return (newest ?? nil) ?? 0
    }

    /// Changes after `id`, oldest first, with their ids.
    func changes(after id: Int) throws(TabStoreError) -> [(id: Int, change: TabChange)] {
        var changes: [(id: Int, change: TabChange)] = []
        try forEachRow("SELECT \(JournalColumn.selectList) FROM change WHERE id > ? ORDER BY id", [.int(id)]) { row in
            if let change = Self.change(from: row) { changes.append((row.int(0), change)) }
        }
        return changes
    }

    /// The newest `limit` changes of a set, newest first. A set that was renamed has
    /// its own changes, under whichever name; otherwise (and for a name without a set)
    /// the changes journaled under the name, earlier sets of that name included, and the
    /// renames that gave a set the name. Either way each revision appears once, decreasing.
    func history(ofSet setName: String, limit: Int) throws(TabStoreError) -> [TabChange] {
        var changes: [TabChange] = []
        let renamedSetID = try firstRow(
            """
            SELECT s.id FROM tab_set s WHERE s.name = ?
            AND EXISTS (SELECT 1 FROM change WHERE set_id = s.id AND kind = ?)
            """, [.text(setName), .text(TabEvent.Kind.setRenamed.rawValue)]
        ) { $0.int(0) }
        let collect = { (row: Statement) in
            if let change = Self.change(from: row) { changes.append(change) }
        }
        if let renamedSetID {
            try forEachRow(
                "SELECT \(JournalColumn.selectList) FROM change WHERE set_id = ? ORDER BY id DESC LIMIT ?",
                [.int(renamedSetID), .int(limit)], row: collect
            )
        } else {
            try forEachRow(
                "SELECT \(JournalColumn.selectList) FROM change WHERE set_name = ?1 OR (kind = ?3 AND new_title = ?1) ORDER BY id DESC LIMIT ?2",
                [.text(setName), .int(limit), .text(TabEvent.Kind.setRenamed.rawValue)], row: collect
            )
        }
        return changes
    }

    /// A journal row read back (`JournalColumn.selectList`: id, then the columns).
    private static func change(from row: Statement) -> TabChange? {
        JournalRow.change { column in
            let index = Int32(column.rawValue + 1)
            if row.isNull(index) { return nil }
            return column.holdsIntegers ? .int(row.int(index)) : .text(row.text(index))
        }
    }
}

extension SQLValue {
    /// A journal cell as a parameter (nil: NULL).
    init(_ cell: JournalValue?) {
        switch cell {
        case let .int(number)?: self = .int(number)
        case let .text(text)?: self = .text(text)
        case nil: self = .null
        }
    }
}
