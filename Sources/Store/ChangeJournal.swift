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
/// kind binds no NULLs; the SQL is literal text, which the statement cache compares
/// fastest.
struct JournalInsert {
    let sql: StaticString
    private(set) var values: [SQLValue]

    /// `common`: the values of set_name, revision, kind, at and set_id.
    init(_ event: TabEvent, _ common: [SQLValue]) {
        values = common
        values.reserveCapacity(common.count + 4)
        switch event {
        case let .added(titles, index):
            sql = "INSERT INTO change (set_name, revision, kind, at, set_id, tab_index, titles) VALUES (?, ?, ?, ?, ?, ?, ?)"
            values += [.int(index), .text(JournalRow.pack(titles))]
        case let .removed(tabs):
            sql = "INSERT INTO change (set_name, revision, kind, at, set_id, tab_index, titles, indices, tab_ids) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
            // At most one removed tab was the selected one: a set has one selection.
            let selected = tabs.first { $0.tab.isSelected }?.index
            values += [
                SQLValue(selected), .text(JournalRow.pack(tabs.map(\.tab.title))), .text(JournalRow.pack(tabs.map(\.index))),
                .text(JournalRow.pack(tabs.map(\.tab.id))),
            ]
        case let .moved(title, from, to):
            sql = "INSERT INTO change (set_name, revision, kind, at, set_id, title, from_index, to_index) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            values += [.text(title), .int(from), .int(to)]
        case let .renamed(index, from, to):
            sql = "INSERT INTO change (set_name, revision, kind, at, set_id, tab_index, title, new_title) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            values += [.int(index), .text(from), .text(to)]
        case let .selectionChanged(updates):
            sql = "INSERT INTO change (set_name, revision, kind, at, set_id, from_index, title, to_index, new_title, tab_ids) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            // The documents' pair: the old tab deselected, then the new one selected.
            let old = updates.first { !$0.tab.isSelected }
            let new = updates.first { $0.tab.isSelected }
            values += [
                SQLValue(old?.index), SQLValue(old?.tab.title), SQLValue(new?.index), SQLValue(new?.tab.title),
                .text((old?.tab.id.uuidString ?? "") + "," + (new?.tab.id.uuidString ?? "")),
            ]
        case let .reselected(tab), let .reopened(tab), let .payloadChanged(tab):
            sql = "INSERT INTO change (set_name, revision, kind, at, set_id, tab_index, title, selected, tab_ids) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
            values += [.int(tab.index), .text(tab.tab.title), .int(tab.tab.isSelected ? 1 : 0), .text(tab.tab.id.uuidString)]
        case let .replaced(count):
            sql = "INSERT INTO change (set_name, revision, kind, at, set_id, tab_count) VALUES (?, ?, ?, ?, ?, ?)"
            values.append(.int(count))
        case let .setRenamed(from, to):
            sql = "INSERT INTO change (set_name, revision, kind, at, set_id, title, new_title) VALUES (?, ?, ?, ?, ?, ?, ?)"
            values += [.text(from), .text(to)]
        case .setRemoved:
            sql = "INSERT INTO change (set_name, revision, kind, at, set_id) VALUES (?, ?, ?, ?, ?)"
        }
    }
}

/// The typed columns of one journal row as read back.
struct JournalRow: Equatable {
    var tabIndex: Int?
    var fromIndex: Int?
    var toIndex: Int?
    var title: String?
    var newTitle: String?
    var tabCount: Int?
    var selected: Bool?
    var titles: [String]?
    var indices: [Int]?
    /// `nil` for a row from before tab ids (schema 6); an entry is `nil` where the row has none.
    var tabIDs: [TabID?]?

    init(
        tabIndex: Int? = nil, fromIndex: Int? = nil, toIndex: Int? = nil, title: String? = nil,
        newTitle: String? = nil, tabCount: Int? = nil, selected: Bool? = nil, titles: [String]? = nil,
        indices: [Int]? = nil, tabIDs: [TabID?]? = nil
    ) {
        self.tabIndex = tabIndex
        self.fromIndex = fromIndex
        self.toIndex = toIndex
        self.title = title
        self.newTitle = newTitle
        self.tabCount = tabCount
        self.selected = selected
        self.titles = titles
        self.indices = indices
        self.tabIDs = tabIDs
    }

    /// The id of the event's tab at `offset`; `TabID.unknown` when the row has none.
    func tabID(_ offset: Int) -> TabID {
        guard let tabIDs, tabIDs.indices.contains(offset) else { return .unknown }
        return tabIDs[offset] ?? .unknown
    }

    /// The event of a row of `kind`, or `nil` when a column its kind needs is missing.
    func event(_ kind: TabEvent.Kind) -> TabEvent? {
        switch kind {
        case .added:
            guard let tabIndex, let titles else { return nil }
            return .added(titles: titles, index: tabIndex)
        case .removed:
            guard let titles, let indices, titles.count == indices.count else { return nil }
            return .removed(zip(indices, titles).enumerated().map { offset, tab in
                TabUpdate(index: tab.0, tab: Tab(id: tabID(offset), title: tab.1, isSelected: tab.0 == tabIndex))
            })
        case .moved:
            guard let title, let fromIndex, let toIndex else { return nil }
            return .moved(title: title, from: fromIndex, to: toIndex)
        case .renamed:
            guard let tabIndex, let title, let newTitle else { return nil }
            return .renamed(index: tabIndex, from: title, to: newTitle)
        case .selectionChanged:
            guard let toIndex, let newTitle else { return nil }
            let new = TabUpdate(index: toIndex, tab: Tab(id: tabID(1), title: newTitle, isSelected: true))
            guard let fromIndex, let title else { return .selectionChanged([new]) }
            return .selectionChanged([TabUpdate(index: fromIndex, tab: Tab(id: tabID(0), title: title, isSelected: false)), new])
        case .reselected, .reopened, .payloadChanged:
            guard let tabIndex, let title, let selected else { return nil }
            let tab = TabUpdate(index: tabIndex, tab: Tab(id: tabID(0), title: title, isSelected: selected))
            switch kind {
            case .reselected: return .reselected(tab)
            case .reopened: return .reopened(tab)
            default: return .payloadChanged(tab)
            }
        case .replaced:
            guard let tabCount else { return nil }
            return .replaced(tabCount: tabCount)
        case .setRenamed:
            guard let title, let newTitle else { return nil }
            return .setRenamed(from: title, to: newTitle)
        case .setRemoved:
            return .setRemoved
        }
    }

    /// Titles never contain control characters (`nameProblem`), so U+001F separates
    /// them unambiguously; no title is empty, so "" is the empty list.
    static let titleSeparator: UInt8 = 0x1F

    static func pack(_ titles: [String]) -> String {
        titles.joined(separator: "\u{1F}")
    }

    static func unpackTitles(_ text: String) -> [String] {
        if text.isEmpty { return [] }
        return text.utf8.split(separator: titleSeparator, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
    }

    static func pack(_ indices: [Int]) -> String {
        indices.map(String.init).joined(separator: ",")
    }

    static func pack(_ ids: [TabID]) -> String {
        ids.map(\.uuidString).joined(separator: ",")
    }

    /// Ids joined by ','; an empty or unreadable part is `nil`.
    static func unpackTabIDs(_ text: String) -> [TabID?] {
        text.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            .map { TabID(String(decoding: $0, as: UTF8.self)) }
    }

    /// `nil` when a part is not a number.
    static func unpackIndices(_ text: String) -> [Int]? {
        if text.isEmpty { return [] }
        var indices: [Int] = []
        for part in text.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            guard let index = Int(String(decoding: part, as: UTF8.self)) else { return nil }
            indices.append(index)
        }
        return indices
    }
}

extension SQLValue {
    init(_ value: Int?) { self = value.map(SQLValue.int) ?? .null }
    init(_ value: String?) { self = value.map(SQLValue.text) ?? .null }
}
