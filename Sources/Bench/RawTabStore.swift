#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Store's operations redone with bare SQLite calls on a `RawConnection`: the same
/// statements (copied from `TabSetRecords.swift`, `SQLitePlan.swift` and
/// `ChangeJournal.swift`), prepared once, no Swift model. When Store's statements change,
/// this file must follow.
final class RawTabStore {
    let connection: RawConnection
    private let begin: RawStatement
    private let commit: RawStatement
    private let setRecord: RawStatement
    private let tabAtPosition: RawStatement
    private let setRecordAndTab: RawStatement
    private let commitChange: RawStatement
    private let insertSet: RawStatement
    private let insertTab: RawStatement
    private let recordChange: RawStatement
    private let trimJournal: RawStatement
    /// `ChangeJournal.journalLimit`.
    private let journalLimit: Int64 = 10_000
    /// The selected tab's row id and index as the last select wrote them, as the store
    /// keeps them with its copy of the set.
    private var selectedRow: (id: Int64, index: Int64)?

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
        // What a select reads of a set the caller holds, knowing its selected tab's row: the
        // set's row and the row of the tab at the index, at once.
        setRecordAndTab = try connection.prepare(
            """
            SELECT s.id, s.revision, s.base, s.selected_tab_id, n.id
            FROM tab_set s LEFT JOIN tab n ON n.set_id = s.id AND n.position = s.base + ?2
            WHERE s.name = ?1
            """
        )
        commitChange = try connection.prepare("UPDATE tab_set SET revision = ?, selected_tab_id = ? WHERE id = ?")
        insertSet = try connection.prepare("INSERT INTO tab_set (name, revision) VALUES (?, ?)")
        insertTab = try connection.prepare("INSERT INTO tab (set_id, position, title, uuid, payload) VALUES (?, ?, ?, ?, ?)")
        // Parameters in `JournalColumn` order: 1 set_name, 2 revision, 3 kind, 4 at, 5 set_id,
        // 6 tab_index, 7 from_index, 8 to_index, 9 title, 10 new_title, 11 tab_count,
        // 12 selected, 13 titles, 14 indices, 15 tab_ids. Unbound ones are NULL.
        recordChange = try connection.prepare(
            """
            INSERT INTO change (set_name, revision, kind, at, set_id, tab_index, from_index, to_index,
                                title, new_title, tab_count, selected, titles, indices, tab_ids)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        )
        trimJournal = try connection.prepare("DELETE FROM change WHERE id <= ?")
    }

    /// What `TabStore.select(.index(position), in:)` runs on a set the store holds (as it
    /// does once it has returned the set): BEGIN IMMEDIATE, the set's row and the row of the
    /// tab at the position (the selected tab's position read only when the last select here
    /// did not write that selection), and when it is another tab, the update,
    /// the journal row (the old and new tab's index, title and id) and the journal trim;
    /// COMMIT. `titles` are the set's by index, `idPairs[old][new]` the journal's "old,new"
    /// ids, held by the caller as the store holds its copy of the set.
    func select(position: Int64, in setName: PinnedText, titles: [PinnedText], idPairs: [[PinnedText]]) throws {
        try begin.run()
        setRecordAndTab.bind(1, setName.bytes)
        setRecordAndTab.bind(2, position)
        guard try setRecordAndTab.step() else { throw RawSQLiteError(code: 0, message: "no set") }
        let setID = setRecordAndTab.int(0)
        let revision = setRecordAndTab.int(1)
        let oldID = setRecordAndTab.int(3)
        let newID = setRecordAndTab.int(4)
        setRecordAndTab.reset()
        let oldIndex: Int64
        if let selectedRow, selectedRow.id == oldID {
            oldIndex = selectedRow.index
        } else {
            setRecord.bind(1, setName.bytes)
            guard try setRecord.step() else { throw RawSQLiteError(code: 0, message: "no set") }
            oldIndex = setRecord.int(4)
            setRecord.reset()
        }
        selectedRow = (newID, position)

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
