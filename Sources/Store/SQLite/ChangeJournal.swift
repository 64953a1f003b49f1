/// The `change` table: one row per committed change, written in the same transaction as
/// the change itself, in the columns `JournalColumn` declares.
extension Database {
    /// Inserts one journal row (one prepared statement, every cell bound in place) and trims
    /// the journal now and then.
    func insertJournalRow(_ entry: JournalEntry, setID: Int?) throws(TabStoreError) {
        try withStatement(key: Self.insertKey) {
            "INSERT INTO change (\(JournalColumn.names)) VALUES (\(JournalColumn.allCases.map { _ in "?" }.joined(separator: ", ")))"
        } _: { insert throws(TabStoreError) in
            insert.prepareToBind()
            var cells = BoundCells(statement: insert)
            entry.write(into: &cells, setID: setID)
            try run(insert, bound: true)
        }
        if lastInsertedID % JournalLimit.trimEvery == 0 {
            try execute("DELETE FROM change WHERE id <= ?", .int(lastInsertedID - JournalLimit.changes))
        }
    }

    /// The id of the newest change, 0 when there is none.
    func lastChangeID() throws(TabStoreError) -> Int {
        let newest = try firstRow("SELECT max(id) FROM change") { $0.optionalInt(0) }
        return (newest ?? nil) ?? 0
    }

    /// Changes after `id`, oldest first, with their ids.
    func changes(after id: Int) throws(TabStoreError) -> [(id: Int, change: TabChange)] {
        var changes: [(id: Int, change: TabChange)] = []
        let read = try statement(key: Self.changesAfterKey) { "SELECT \(JournalColumn.selectList) FROM change WHERE id > ? ORDER BY id" }
        try forEachRow(read, [.int(id)]) { row in
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
            """, .text(setName), .text(TabEvent.Kind.setRenamed.rawValue)
        ) { $0.int(0) }
        let collect = { (row: Statement) in
            if let change = Self.change(from: row) { changes.append(change) }
        }
        if let renamedSetID {
            let read = try statement(key: Self.historyOfSetKey) {
                "SELECT \(JournalColumn.selectList) FROM change WHERE set_id = ? ORDER BY id DESC LIMIT ?"
            }
            try forEachRow(read, [.int(renamedSetID), .int(limit)], row: collect)
        } else {
            let read = try statement(key: Self.historyOfNameKey) {
                "SELECT \(JournalColumn.selectList) FROM change WHERE set_name = ?1 OR (kind = ?3 AND new_title = ?1) ORDER BY id DESC LIMIT ?2"
            }
            try forEachRow(read, [.text(setName), .int(limit), .text(TabEvent.Kind.setRenamed.rawValue)], row: collect)
        }
        return changes
    }

    // Keys of the journal's statements among the keyed ones.
    private static let insertKey = 0
    private static let changesAfterKey = 1
    private static let historyOfSetKey = 2
    private static let historyOfNameKey = 3

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
    init(_ value: Int?) { self = value.map(SQLValue.int) ?? .null }
    init(_ value: String?) { self = value.map(SQLValue.text) ?? .null }
}

/// A journal row's cells bound to the parameters of its INSERT, in column order.
private struct BoundCells: JournalCells {
    let statement: Statement

    func set(_ column: JournalColumn, _ value: Int?) {
        let parameter = Int32(column.rawValue + 1)
        if let value { statement.bind(value, at: parameter) } else { statement.bindNull(at: parameter) }
    }

    func set(_ column: JournalColumn, _ value: String?) {
        let parameter = Int32(column.rawValue + 1)
        if let value { statement.bind(value, at: parameter) } else { statement.bindNull(at: parameter) }
    }

    func set(_ column: JournalColumn, ids: JournalTabIDs?) {
        let parameter = Int32(column.rawValue + 1)
        if let ids { statement.bind(packedIDs: ids, at: parameter) } else { statement.bindNull(at: parameter) }
    }
}
