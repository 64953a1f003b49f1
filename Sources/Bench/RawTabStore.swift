/// Store's operations redone with bare SQLite calls on a `RawConnection`: the same
/// statements (copied from `TabSetRecords.swift` and `ChangeJournal.swift`), prepared
/// once, no Swift model. When Store's statements change, this file must follow.
final class RawTabStore {
    let connection: RawConnection
    private let begin: RawStatement
    private let commit: RawStatement
    private let setRecord: RawStatement
    private let tabAtPosition: RawStatement
    private let commitChange: RawStatement
    private let insertSet: RawStatement
    private let insertTab: RawStatement
    private let recordChange: RawStatement
    private let trimJournal: RawStatement
    /// `ChangeJournal.journalLimit`.
    private let journalLimit: Int64 = 10_000

    /// Opens (creating and migrating when new) the file at `path`.
    init(path: String, synchronous: String) throws {
        connection = try RawConnection(path: path, synchronous: synchronous)
        try connection.migrate()
        begin = try connection.prepare("BEGIN IMMEDIATE")
        commit = try connection.prepare("COMMIT")
        setRecord = try connection.prepare(
            """
            SELECT s.id, s.revision, s.base, t.id, t.position - s.base, t.title
            FROM tab_set s LEFT JOIN tab t ON t.id = s.selected_tab_id
            WHERE s.name = ?
            """
        )
        tabAtPosition = try connection.prepare("SELECT id, title FROM tab WHERE set_id = ? AND position = ?")
        commitChange = try connection.prepare(
            "UPDATE tab_set SET revision = revision + 1, selected_tab_id = ? WHERE id = ?"
        )
        insertSet = try connection.prepare("INSERT INTO tab_set (name) VALUES (?)")
        insertTab = try connection.prepare("INSERT INTO tab (set_id, position, title) VALUES (?, ?, ?)")
        recordChange = try connection.prepare(
            """
            INSERT INTO change (set_name, revision, kind, detail, at)
            VALUES (?, ?, ?, ?, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER))
            """
        )
        trimJournal = try connection.prepare("DELETE FROM change WHERE id <= ?")
    }

    /// What `TabStore.select(.index(position), in:)` runs: BEGIN IMMEDIATE, the set
    /// with its selected tab, the tab at the position and, when it is another tab, the
    /// update, the journal row and the journal trim; COMMIT. `detail` is the journal's
    /// JSON for this change, formatted by the caller beforehand as C code would with
    /// `snprintf` (well under a microsecond).
    func select(position: Int64, in setName: PinnedText, detail: PinnedText) throws {
        try begin.run()
        setRecord.bind(1, setName.bytes)
        guard try setRecord.step() else { throw RawSQLiteError(code: 0, message: "no set") }
        let setID = setRecord.int(0)
        let revision = setRecord.int(1)
        let base = setRecord.int(2)
        let oldID = setRecord.int(3)
        _ = setRecord.int(4) + Int64(setRecord.textLength(5))
        setRecord.reset()

        tabAtPosition.bind(1, setID)
        tabAtPosition.bind(2, base + position)
        guard try tabAtPosition.step() else { throw RawSQLiteError(code: 0, message: "no tab") }
        let newID = tabAtPosition.int(0)
        _ = tabAtPosition.textLength(1)
        tabAtPosition.reset()

        if newID != oldID {
            try commitChange(setID: setID, selectedID: newID)
            try record(setName: setName, revision: revision + 1, kind: selected, detail: detail)
        }
        try commit.run()
    }

    private let selected = PinnedText("selected")
    private let replaced = PinnedText("replaced")

    private func commitChange(setID: Int64, selectedID: Int64) throws {
        commitChange.bind(1, selectedID)
        commitChange.bind(2, setID)
        try commitChange.run()
    }

    /// The journal row every change writes, and the trim that keeps the journal bounded.
    private func record(setName: PinnedText, revision: Int64, kind: PinnedText, detail: PinnedText) throws {
        recordChange.bind(1, setName.bytes)
        recordChange.bind(2, revision)
        recordChange.bind(3, kind.bytes)
        recordChange.bind(4, detail.bytes)
        try recordChange.run()
        // As `Database.record`: trim on every 100th row.
        if connection.lastInsertedID % 100 == 0 {
            trimJournal.bind(1, connection.lastInsertedID - journalLimit)
            try trimJournal.run()
        }
    }

    /// Writes whole sets in one transaction: each set row, its tab rows, its selection
    /// and its journal row, as an import does. The least any import of these rows must do.
    func insertSets(_ sets: [(name: PinnedText, titles: [PinnedText], selectedIndex: Int)]) throws {
        try begin.run()
        do {
            for set in sets {
                insertSet.bind(1, set.name.bytes)
                try insertSet.run()
                let setID = connection.lastInsertedID
                var selectedID: Int64 = 0
                for (position, title) in set.titles.enumerated() {
                    insertTab.bind(1, setID)
                    insertTab.bind(2, Int64(position))
                    insertTab.bind(3, title.bytes)
                    try insertTab.run()
                    if position == set.selectedIndex { selectedID = connection.lastInsertedID }
                }
                try commitChange(setID: setID, selectedID: selectedID)
                let detail = PinnedText(#"{"tabCount":\#(set.titles.count)}"#)
                try record(setName: set.name, revision: 1, kind: replaced, detail: detail)
            }
            try commit.run()
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }
}
