#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// The statements `RawTabStore` runs, each the text of the Store statement it mirrors:
/// when one of those changes, its twin here changes with it.
enum RawSQL {
    static let begin = "BEGIN IMMEDIATE"
    static let commit = "COMMIT"
    /// `SyncTables.swift`, `recordsMutations`: whether this file syncs, so that an edit
    /// also writes its mutation (it does not here).
    static let recordsMutations = "SELECT 1 FROM sync_device"
    /// `TabSetRecords.swift`, `SetSQL.setAndTabAtIndex`: the set row, its selected tab
    /// (3: t.id, 7: its index) and the tab at the index asked (8: n.id).
    static let setAndTabAtIndex = """
        SELECT s.id, s.revision, s.base, t.id, t.title, t.uuid, t.payload, t.position - s.base, n.id, n.title, n.uuid, n.payload
        FROM tab_set s LEFT JOIN tab t ON t.id = s.selected_tab_id LEFT JOIN tab n ON n.set_id = s.id AND n.position = s.base + ?2
        WHERE s.name = ?1
        """
    /// `TabSetRecords.swift`, `rowsSummary(of:fromCopy:lookups:found:)`: the removed tabs' indices, which no copy holds.
    static let closedPositions = "SELECT min(position), max(position) FROM closed_tab WHERE set_id = ?"
    /// The floor's set lookup: `TabSetRecords.swift`, `SetSQL.setNamed`, with only the
    /// selected tab's id, index and title.
    static let setNamed = """
        SELECT s.id, s.revision, s.base, t.id, t.position - s.base, t.title
        FROM tab_set s LEFT JOIN tab t ON t.id = s.selected_tab_id
        WHERE s.name = ?
        """
    /// The floor's tab lookup: `SetSQL.tabAtPosition`, with only the row id and title.
    static let tabAtPosition = "SELECT id, title FROM tab WHERE set_id = ? AND position = ?"
    /// `SQLitePlan.swift`, `updateSet` with a tab's row.
    static let updateSet = "UPDATE tab_set SET revision = ?, selected_tab_id = ? WHERE id = ?"
    /// `SQLitePlan.swift`, `.insertSet` and `.insertTabs`.
    static let insertSet = "INSERT INTO tab_set (name, revision) VALUES (?, ?)"
    static let insertTab = "INSERT INTO tab (set_id, position, title, uuid, payload) VALUES (?, ?, ?, ?, ?)"
    /// `ChangeJournal.swift`, `insert`: parameters in `JournalColumn` order: 1 set_name,
    /// 2 revision, 3 kind, 4 at, 5 set_id, 6 tab_index, 7 from_index, 8 to_index, 9 title,
    /// 10 new_title, 11 tab_count, 12 selected, 13 titles, 14 indices, 15 tab_ids,
    /// 16 change_id. Unbound ones are NULL.
    static let insertChange = """
        INSERT INTO change (set_name, revision, kind, at, set_id, tab_index, from_index, to_index,
                            title, new_title, tab_count, selected, titles, indices, tab_ids, change_id)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    /// `ChangeJournal.swift`, the trim in `insertJournalRow`.
    static let trimJournal = "DELETE FROM change WHERE id <= ?"
}

/// Store's operations redone with bare SQLite calls on a `RawConnection`: the statements of
/// `RawSQL`, prepared once, no Swift model.
final class RawTabStore {
    let connection: RawConnection
    private let begin: RawStatement
    private let commit: RawStatement
    private let recordsMutations: RawStatement
    private let setRecordAndTab: RawStatement
    private let closedPositions: RawStatement
    private let setRecord: RawStatement
    private let tabAtPosition: RawStatement
    private let commitChange: RawStatement
    private let insertSet: RawStatement
    private let insertTab: RawStatement
    private let recordChange: RawStatement
    private let trimJournal: RawStatement
    /// `JournalLimit.changes`.
    private let journalLimit: Int64 = 10_000

    /// Opens (creating and migrating when new) the file at `path`.
    init(path: String, synchronous: String) throws {
        connection = try RawConnection(path: path, synchronous: synchronous)
        try connection.migrate()
        begin = try connection.prepare(RawSQL.begin)
        commit = try connection.prepare(RawSQL.commit)
        recordsMutations = try connection.prepare(RawSQL.recordsMutations)
        setRecordAndTab = try connection.prepare(RawSQL.setAndTabAtIndex)
        closedPositions = try connection.prepare(RawSQL.closedPositions)
        setRecord = try connection.prepare(RawSQL.setNamed)
        tabAtPosition = try connection.prepare(RawSQL.tabAtPosition)
        commitChange = try connection.prepare(RawSQL.updateSet)
        insertSet = try connection.prepare(RawSQL.insertSet)
        insertTab = try connection.prepare(RawSQL.insertTab)
        recordChange = try connection.prepare(RawSQL.insertChange)
        trimJournal = try connection.prepare(RawSQL.trimJournal)
    }

    /// What `TabStore.select(.index(position), in:)` runs on a set the store holds (as it
    /// does once it has returned the set): BEGIN IMMEDIATE, whether the file syncs, the
    /// set's row with its selected tab and the tab at the position, the removed tabs'
    /// indices, and when it is another tab, the update, the journal row (the old and new tab's index, title and id) and the
    /// journal trim; COMMIT. `titles` are the set's by index, `idPairs[old][new]` the
    /// journal's "old,new" ids, held by the caller as the store holds its copy of the set.
    func select(position: Int64, in setName: PinnedText, titles: [PinnedText], idPairs: [[PinnedText]]) throws {
        try begin.run()
        guard try !recordsMutations.step() else { throw RawSQLiteError(code: 0, message: "the file syncs") }
        recordsMutations.reset()
        setRecordAndTab.bind(1, setName.bytes)
        setRecordAndTab.bind(2, position)
        guard try setRecordAndTab.step() else { throw RawSQLiteError(code: 0, message: "no set") }
        let setID = setRecordAndTab.int(0)
        let revision = setRecordAndTab.int(1)
        let oldID = setRecordAndTab.int(3)
        let oldIndex = setRecordAndTab.int(7)
        let newID = setRecordAndTab.int(8)
        setRecordAndTab.reset()
        closedPositions.bind(1, setID)
        _ = try closedPositions.step()
        closedPositions.reset()

        if newID != oldID {
            try commitChange(setID: setID, revision: revision + 1, selectedID: newID)
            recordChange.bind(7, oldIndex)
            recordChange.bind(8, position)
            recordChange.bind(9, titles[Int(oldIndex)].bytes)
            recordChange.bind(10, titles[Int(position)].bytes)
            recordChange.bind(15, idPairs[Int(oldIndex)][Int(position)].bytes)
            try record(setName: setName, setID: setID, revision: revision + 1, kind: selected)
        }
        try commit.run()
    }

    /// The floor under any select: BEGIN IMMEDIATE, the set lookup, the tab lookup, the
    /// selection update, COMMIT. No journal, no revision check, no reselection test.
    func selectOnly(position: Int64, in setName: PinnedText) throws {
        try begin.run()
        setRecord.bind(1, setName.bytes)
        guard try setRecord.step() else { throw RawSQLiteError(code: 0, message: "no set") }
        let setID = setRecord.int(0)
        let revision = setRecord.int(1)
        let base = setRecord.int(2)
        setRecord.reset()
        tabAtPosition.bind(1, setID)
        tabAtPosition.bind(2, base + position)
        guard try tabAtPosition.step() else { throw RawSQLiteError(code: 0, message: "no tab") }
        let newID = tabAtPosition.int(0)
        tabAtPosition.reset()
        try commitChange(setID: setID, revision: revision + 1, selectedID: newID)
        try commit.run()
    }

    private let selected = PinnedText("selected")
    private let added = PinnedText("added")

    private func commitChange(setID: Int64, revision: Int64, selectedID: Int64) throws {
        commitChange.bind(1, revision)
        commitChange.bind(2, selectedID)
        commitChange.bind(3, setID)
        try commitChange.run()
    }

    /// The journal row every change writes (the kind's own columns bound by the caller),
    /// and the trim that keeps the journal bounded.
    private func record(setName: PinnedText, setID: Int64, revision: Int64, kind: PinnedText) throws {
        recordChange.bind(1, setName.bytes)
        recordChange.bind(2, revision)
        recordChange.bind(3, kind.bytes)
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        recordChange.bind(4, Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000)
        recordChange.bind(5, setID)
        try recordChange.run()
        // As `Database.record`: trim on every 100th row.
        if connection.lastInsertedID % 100 == 0 {
            trimJournal.bind(1, connection.lastInsertedID - journalLimit)
            try trimJournal.run()
        }
    }

    /// Writes whole sets in one transaction: each set row, its tab rows with the ids given,
    /// its selection and its journal row (added, with the titles), as an import does. The
    /// least any import of these rows must do.
    func insertSets(_ sets: [(name: PinnedText, titles: [PinnedText], ids: [PinnedText], selectedIndex: Int)]) throws {
        try begin.run()
        do {
            for set in sets {
                insertSet.bind(1, set.name.bytes)
                insertSet.bind(2, 0)
                try insertSet.run()
                let setID = connection.lastInsertedID
                var selectedID: Int64 = 0
                for (position, title) in set.titles.enumerated() {
                    insertTab.bind(1, setID)
                    insertTab.bind(2, Int64(position))
                    insertTab.bind(3, title.bytes)
                    insertTab.bind(4, set.ids[position].bytes)
                    try insertTab.run()
                    if position == set.selectedIndex { selectedID = connection.lastInsertedID }
                }
                try commitChange(setID: setID, revision: 1, selectedID: selectedID)
                // As Store journals a set an import creates: added, its titles packed.
                let packed = PinnedText(set.titles.map { String(decoding: $0.bytes, as: UTF8.self) }.joined(separator: "\u{1F}"))
                recordChange.clearBindings()
                recordChange.bind(6, 0)
                recordChange.bind(13, packed.bytes)
                try record(setName: set.name, setID: setID, revision: 1, kind: added)
                recordChange.clearBindings()
            }
            try commit.run()
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }
}
