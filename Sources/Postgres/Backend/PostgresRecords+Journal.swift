import TabStoreKit

// The change journal on the server, in the columns `JournalColumn` declares.
extension PostgresRecords {
    /// Journal ids must grow in commit order, or a reader that has seen id 12 would skip
    /// an id 11 committed after it. A transaction-level advisory lock taken just before
    /// the first insert serializes the inserts to the commit (the lock is released only
    /// after the commit is visible); it is held for the rest of one round trip.
    static let journalLock = "SELECT pg_advisory_xact_lock(7419633)"

    /// A hint for listeners in other processes; sent once per transaction however many
    /// changes it holds.
    static let notify = "SELECT pg_notify('tabstore_changes', '')"

    /// The INSERT of one journal row ($1...$n in `JournalColumn` order; the set id is its
    /// own parameter, or for a set this transaction creates, looked up by its name, $n+1),
    /// with the trim that keeps the journal bounded ($n+2: the limit, $n+3: how often it runs).
    static let journalInsert: String = {
        let columns = JournalColumn.allCases.count
        let setID = JournalColumn.setID.rawValue + 1
        let values = JournalColumn.allCases.map { column in
            column == .setID ? "coalesce($\(setID)::bigint, (SELECT id FROM {schema}.tab_set WHERE name = $\(columns + 1)))" : "$\(column.rawValue + 1)"
        }
        return """
            WITH added AS (
                INSERT INTO {schema}.change (\(JournalColumn.names)) VALUES (\(values.joined(separator: ", ")))
                RETURNING id
            )
            DELETE FROM {schema}.change WHERE (SELECT id % $\(columns + 3) FROM added) = 0 AND id <= (SELECT id FROM added) - $\(columns + 2)
            """
    }()

    /// The statement that journals `entry` as part of the write `changeID` names.
    static func journal(_ entry: JournalEntry, changeID: String) -> PostgresStatement {
        var setID: Int?, setName: String?
        switch entry.set {
        case let .id(id)?: setID = id
        case let .new(name)?: setName = name
        case nil: break
        }
        let cells = entry.cells(setID: setID, changeID: changeID).map { cell -> String? in
            switch cell {
            case let .int(number)?: String(number)
            case let .text(text)?: text
            case nil: nil
            }
        }
        return PostgresStatement(journalInsert, cells + [setName, JournalLimit.changes.text, JournalLimit.trimEvery.text])
    }

    /// Whether a write whose journal rows carry `changeID` was committed.
    static let changeSaved = "SELECT 1 FROM {schema}.change WHERE change_id = $1 LIMIT 1"

    private static let changeColumns = "SELECT \(JournalColumn.selectList) FROM {schema}.change"

    func changes(after id: Int) throws(TabStoreError) -> [(id: Int, change: TabChange)] {
        let rows = try query(Self.changeColumns + " WHERE id > $1 ORDER BY id", [id.text])
        return (0..<rows.count).compactMap { row in Self.change(rows, row).map { (rows.requiredInt(row, 0), $0) } }
    }

    func history(ofSet setName: String, limit: Int) throws(TabStoreError) -> [TabChange] {
        if cannotBeStored(setName) { return [] }
        let renamed = try query(
            """
            SELECT s.id FROM {schema}.tab_set s WHERE s.name = $1
            AND EXISTS (SELECT 1 FROM {schema}.change WHERE set_id = s.id AND kind = $2)
            """, [setName, TabEvent.Kind.setRenamed.rawValue]
        )
        let rows = if let setID = renamed.int(0, 0) {
            try query(Self.changeColumns + " WHERE set_id = $1 ORDER BY id DESC LIMIT $2", [setID.text, limit.text])
        } else {
            try query(
                Self.changeColumns + " WHERE set_name = $1 OR (kind = $3 AND new_title = $1) ORDER BY id DESC LIMIT $2",
                [setName, limit.text, TabEvent.Kind.setRenamed.rawValue]
            )
        }
        return (0..<rows.count).compactMap { Self.change(rows, $0) }
    }

    func lastChangeID() throws(TabStoreError) -> Int {
        try query("SELECT coalesce(max(id), 0) FROM {schema}.change").requiredInt(0, 0)
    }

    /// A journal row read back; `nil` for a row this binary cannot read (skipped, not fatal).
    private static func change(_ rows: PostgresRows, _ row: Int) -> TabChange? {
        JournalRow.change { column in
            guard let text = rows.value(row, column.rawValue + 1) else { return nil }
            guard column.holdsIntegers else { return .text(text) }
            return Int(text).map(JournalValue.int)
        }
    }
}
