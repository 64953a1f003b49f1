/// The `change` table: one row per committed change, written in the same transaction as
/// the change itself, in the columns `JournalColumn` declares.
extension Database {
    /// Inserts one journal row, binding only the cells it fills (the statement for that
    /// set of columns is prepared once), and trims the journal now and then.
    func insertJournalRow(_ values: [JournalValue?]) throws(TabStoreError) {
        var mask = 0
        var bound: [SQLValue] = []
        bound.reserveCapacity(values.count)
        for (offset, value) in values.enumerated() {
            guard let value else { continue }
            mask |= 1 << offset
            switch value {
            case let .int(number): bound.append(.int(number))
            case let .text(text): bound.append(.text(text))
            }
        }
        let insert = try statement(key: mask) {
            let columns = JournalColumn.allCases.filter { mask & (1 << $0.rawValue) != 0 }
            return "INSERT INTO change (\(columns.map(\.name).joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
        }
        try run(insert, bound)
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
            let read = try statement(key: Self.historyOfSetKey) {
                "SELECT \(JournalColumn.selectList) FROM change WHERE set_id = ? ORDER BY id DESC LIMIT ?"
            }
            try forEachRow(read, [.int(renamedSetID), .int(limit)], row: collect)
        } else {
            let read = try statement(key: Self.historyOfNameKey) {
                "SELECT \(JournalColumn.selectList) FROM change WHERE set_name = ? ORDER BY id DESC LIMIT ?"
            }
            try forEachRow(read, [.text(setName), .int(limit)], row: collect)
        }
        return changes
    }

    // Keys of the journal reads among the keyed statements: negative, never a column mask.
    private static let changesAfterKey = -1
    private static let historyOfSetKey = -2
    private static let historyOfNameKey = -3

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
