/// The row ids a select of a set the store holds reads.
private struct SetRowIDs {
    let id: Int
    let revision: Int
    let base: Int
    let selectedID: Int?
    let tabID: Int?
}

/// What a select of a set the store holds reads besides row ids: its removed tabs'
/// lowest and highest index, which no copy holds.
private struct HeldSetRow {
    let ids: SetRowIDs
    let lowestClosedPosition: Int?
    let highestClosedPosition: Int?
}

/// A set with one of its tabs (nil: none at the index asked), and its shape when the read
/// knew it. A tuple, whose parts a pattern moves out; a struct's were copied out, then
/// destroyed with it.
private typealias SetAndTab = (record: SetRecord, tab: TabRecord?, shape: SetShape?)

extension Statement {
    /// A tab row read from `column` on, in `TabColumn`'s columns, at `index`: the one
    /// place the SQLite backend reads a tab.
    func tabRecord(from column: Int32, index: Int) -> TabRecord {
        func at(_ tabColumn: TabColumn) -> Int32 { column + Int32(tabColumn.rawValue) }
        return TabRecord(
            id: int(at(.id)), index: index, title: text(at(.title)), uuid: tabID(at(.uuid)),
            payload: unpackPayload(optionalText(at(.payload)))
        )
    }
}

/// The reads of a set with a tab, made once: a set row (id, revision, base), its selected
/// tab in `TabColumn`'s columns from column 3, then that tab's index; more columns follow.
private enum SetSQL {
    static let selectSet = "SELECT s.id, s.revision, s.base, \(TabColumn.selectList("t")), t.position - s.base"
    static let fromSet = "FROM tab_set s LEFT JOIN tab t ON t.id = s.selected_tab_id"
    /// The first column after the set's.
    static let afterSet = Int32(4 + TabColumn.count)

    static let setNamed = "\(selectSet) \(fromSet) WHERE s.name = ?"
    /// The count is the last position: positions are contiguous, so an index lookup, not a scan.
    static let setAndCountNamed = """
        \(selectSet), (SELECT max(position) FROM tab WHERE set_id = s.id) - s.base + 1
        \(fromSet) WHERE s.name = ?
        """
    static let setAndTabAtIndex = """
        \(selectSet), \(TabColumn.selectList("n"))
        \(fromSet) LEFT JOIN tab n ON n.set_id = s.id AND n.position = s.base + ?2
        WHERE s.name = ?1
        """

    /// A set's tabs in order, and one tab with its index (after the tab's columns) found by
    /// position, title or id.
    static let tabsOfSet = "SELECT \(TabColumn.selectList("t")) FROM tab t WHERE t.set_id = ? ORDER BY t.position"
    static let tabAtPosition = "SELECT \(TabColumn.selectList("t")) FROM tab t WHERE t.set_id = ?1 AND t.position = ?2 + ?3"
    static let tabTitled = "SELECT \(TabColumn.selectList("t")), t.position - ?3 FROM tab t WHERE t.set_id = ?1 AND t.title = ?2"
    static let tabWithID = "SELECT \(TabColumn.selectList("t")), t.position - ?3 FROM tab t WHERE t.uuid = ?1 AND t.set_id = ?2"
}

/// The SQLite reads of sets and tabs: by the rules' snapshots inside a write, and by
/// `TabStore`'s reading calls. Positions become indices here (less the set's base).
extension Database: TabRecords, SnapshotReader {
    func setRecord(named name: String) throws(TabStoreError) -> SetRecord? {
        try firstRow(SetSQL.setNamed, [.text(name)]) { Self.setRecord($0, name: name) }
    }

    /// The set row with its selected tab, as `SetSQL.selectSet` selects them.
    private static func setRecord(_ row: Statement, name: String) -> SetRecord {
        SetRecord(
            id: row.int(0), name: name, revision: row.int(1), base: row.int(2),
            selected: row.isNull(3) ? nil : row.tabRecord(from: 3, index: row.int(SetSQL.afterSet - 1))
        )
    }

    /// The set and how many tabs it has.
    private func setRecordAndCount(named name: String) throws(TabStoreError) -> (record: SetRecord, count: Int)? {
        try firstRow(SetSQL.setAndCountNamed, [.text(name)]) { row in
            (Self.setRecord(row, name: name), row.optionalInt(SetSQL.afterSet) ?? 0)
        }
    }

    /// The set and its tab at `index` (not negative), in one statement: what a select reads.
    private func setRecordAndTab(named name: String, at index: Int) throws(TabStoreError) -> SetAndTab? {
        try firstRow(SetSQL.setAndTabAtIndex, [.text(name), .int(index)]) { row in
            let tab = SetSQL.afterSet
            return (Self.setRecord(row, name: name), row.isNull(tab) ? nil : row.tabRecord(from: tab, index: index), nil)
        }
    }

    /// `setRecordAndTab` for a set the store holds a copy of, knowing its selected tab's
    /// row: only row ids are read (SQLite copies out no text, and reads no selected tab's
    /// row), the rest is the copy's. Nil when the copy cannot answer: no such set, another
    /// revision, or a copy that does not fit the rows (then the whole read says what there is).
    ///
    /// The shape is the copy's: a copy at the set's revision stands for its rows (see
    /// `KnownSets`), which were checked when the copy was read, or written by a plan made
    /// from checked rows. What the copy cannot stand for is read: the base, the revision,
    /// the selected row, and the removed tabs' indices.
    private func setRecordAndTab(named name: String, at index: Int, held: HeldSet, selected row: SelectedRow) throws(TabStoreError) -> SetAndTab? {
        let current = try firstRow(
            """
            SELECT s.id, s.revision, s.base, s.selected_tab_id, n.id,
                   (SELECT min(position) FROM closed_tab WHERE set_id = s.id), (SELECT max(position) FROM closed_tab WHERE set_id = s.id)
            FROM tab_set s LEFT JOIN tab n ON n.set_id = s.id AND n.position = s.base + ?2
            WHERE s.name = ?1
            """, [.text(name), .int(index)]
        ) { row in
            HeldSetRow(
                ids: SetRowIDs(id: row.int(0), revision: row.int(1), base: row.int(2), selectedID: row.optionalInt(3), tabID: row.optionalInt(4)),
                lowestClosedPosition: row.optionalInt(5), highestClosedPosition: row.optionalInt(6)
            )
        }
        let tabs = held.set.tabs
        // The copy must fit the rows: its selected tab the row the set selects, and a tab
        // at `index` exactly when the set has one there. A base out of range is left to the
        // whole read, whose shape says so (here the last position could overflow).
        guard let read = current, case let current = read.ids, current.revision == held.set.revision, current.selectedID == row.id,
              tabs.indices.contains(row.index), tabs[row.index].isSelected,
              RuleCheck.positionRange.contains(current.base) else { return nil }
        let shape = SetShape(
            name: name, base: current.base, revision: current.revision, tabCount: tabs.count, distinctPositions: tabs.count,
            lowestPosition: current.base, highestPosition: current.base + tabs.count - 1, selection: .ownTab,
            journaledRevision: nil, tabsWithoutValidID: nil,
            lowestClosedPosition: read.lowestClosedPosition, highestClosedPosition: read.highestClosedPosition
        )
        let old = tabs[row.index]
        let selected = TabRecord(id: row.id, index: row.index, title: old.title, uuid: old.id, payload: old.payload)
        var found: TabRecord?
        if let id = current.tabID {
            guard tabs.indices.contains(index) else { return nil }
            found = TabRecord(id: id, index: index, title: tabs[index].title, uuid: tabs[index].id, payload: tabs[index].payload)
        } else if index < tabs.count {
            return nil
        }
        return (SetRecord(id: current.id, name: name, revision: current.revision, base: current.base, selected: selected), found, shape)
    }

    func snapshot(_ request: SnapshotRequest) throws(TabStoreError) -> SetSnapshot {
        let name = request.setName
        var record: SetRecord?
        var shape: SetShape?
        var count: Int?
        var found: [FoundTab] = []
        // The one tab an index lookup read with the set: apart from the list, which it would allocate.
        var indexFound: FoundTab?
        var tabs: [TabRecord]?
        // Whether an index the request names has no tab: the count then says why.
        let missesAnIndex: Bool
        // Whether the store's copy was found not to fit the rows: then it stands for nothing.
        var copyRefused = false
        if let index = request.onlyIndex {
            // One tab at an index: read with the set, in one statement; from the store's
            // copy, when it holds the set at the revision read, all but their row ids.
            var current: SetAndTab?
            if let held = request.tabsForResult.held, let row = held.selectedRow {
                current = try setRecordAndTab(named: name, at: index, held: held, selected: row)
                copyRefused = current == nil
            }
            if current == nil { current = try setRecordAndTab(named: name, at: index) }
            // Taken, not copied: its parts are moved on.
            if case let (currentRecord, tab, currentShape)? = current.take() {
                record = currentRecord
                shape = currentShape
                if let tab { indexFound = FoundTab(lookup: .index(index), tab: tab) }
            }
            if let record, request.readsAllTabs(atRevision: record.revision) { tabs = try self.tabs(in: record) }
            missesAnIndex = indexFound == nil
        } else {
            let lookups = request.lookups
            if request.needsTabCount {
                let current = try setRecordAndCount(named: name)
                (record, count) = (current?.record, current?.count)
            } else {
                record = try setRecord(named: name)
            }
            if let record, request.readsAllTabs(atRevision: record.revision) { tabs = try self.tabs(in: record) }
            if let tabs {
                found = tabs.answering(lookups)
            } else if let record {
                for lookup in lookups {
                    if let tab = try self.tab(lookup, in: record, count: count) { found.append(FoundTab(lookup: lookup, tab: tab)) }
                }
            }
            missesAnIndex = lookups.contains { lookup in
                if case .index = lookup { return !found.contains { $0.lookup == lookup } }
                return false
            }
        }
        if count == nil, let record, missesAnIndex {
            count = try setRecordAndCount(named: record.name)?.count
        }
        if shape == nil, !copyRefused, let record, let held = request.tabsForResult.held {
            shape = try heldShape(of: record, standingFor: held, found: found, alsoFound: indexFound)
        }
        if shape == nil, let record { shape = try setShape(of: record) }
        var lastClosed: ClosedTabRecord?
        if request.lastClosed, let record { lastClosed = try lastClosedTab(of: record) }
        var other: OtherName?
        if let otherName = request.otherName {
            other = OtherName(name: otherName, record: try setRecord(named: otherName), nameRevision: try nameRevision(of: otherName))
        }
        // Worked out before the call, whose arguments then each move in, the last use of each.
        let revisionOfName = record == nil ? try nameRevision(of: name) : 0
        let holdersOfIDs = try holders(of: request.holdersOf)
        return SetSnapshot(
            name: name, record: record, shape: shape, tabCount: count ?? tabs?.count ?? 0, nameRevision: revisionOfName,
            tabs: tabs, found: found, lastClosed: lastClosed, other: other, holders: holdersOfIDs, firstFound: indexFound
        )
    }

    /// The shape of a set the store holds a copy of at the revision read: the copy stands for
    /// its rows (see `KnownSets`), as in the select above, when it has the tab the row
    /// selects, and each tab the rows gave the lookups, at the same index; its removed tabs'
    /// indices, which no copy holds, are read. Nil when the copy cannot stand for the rows
    /// (then they are counted).
    private func heldShape(
        of record: SetRecord, standingFor held: HeldSet, found: [FoundTab], alsoFound: FoundTab?
    ) throws(TabStoreError) -> SetShape? {
        let tabs = held.set.tabs
        func fits(_ tab: TabRecord) -> Bool { tabs.indices.contains(tab.index) && tabs[tab.index].id == tab.uuid }
        guard let setID = record.id, held.set.revision == record.revision, let selected = record.selected,
              held.set.selectedIndex == selected.index, fits(selected), found.allSatisfy({ fits($0.tab) }),
              alsoFound.map({ fits($0.tab) }) ?? true,
              RuleCheck.positionRange.contains(record.base) else { return nil }
        let closed = try firstRow("SELECT min(position), max(position) FROM closed_tab WHERE set_id = ?", [.int(setID)]) { row in
            (lowest: row.optionalInt(0), highest: row.optionalInt(1))
        }
        return SetShape(
            name: record.name, base: record.base, revision: record.revision, tabCount: tabs.count, distinctPositions: tabs.count,
            lowestPosition: record.base, highestPosition: record.base + tabs.count - 1, selection: .ownTab,
            journaledRevision: nil, tabsWithoutValidID: nil, lowestClosedPosition: closed?.lowest, highestClosedPosition: closed?.highest
        )
    }

    /// One tab of `set` (which has `count` tabs, when counted), or nil.
    private func tab(_ lookup: TabLookup, in set: SetRecord, count: Int?) throws(TabStoreError) -> TabRecord? {
        guard let setID = set.id else { return nil }
        switch lookup {
        // Stored values are added and subtracted in SQL (where an overflow is no trap) or
        // checked: the rules judge the set's shape after this read, so these values may be
        // any the file holds.
        case let .index(index):
            let fromEnd = count.map { index.addingReportingOverflow($0) }
            guard let position = index < 0 ? fromEnd.flatMap({ $0.overflow ? nil : $0.partialValue }) : index, position >= 0
            else { return nil }
            if let count, position >= count { return nil }
            return try firstRow(SetSQL.tabAtPosition, [.int(setID), .int(set.base), .int(position)]) {
                $0.tabRecord(from: 0, index: position)
            }
        case let .title(title):
            return try firstRow(SetSQL.tabTitled, [.int(setID), .text(title.text), .int(set.base)]) {
                $0.tabRecord(from: 0, index: $0.int(Int32(TabColumn.count)))
            }
        case let .id(id):
            return try firstRow(SetSQL.tabWithID, [.tabID(id), .int(setID), .int(set.base)]) {
                $0.tabRecord(from: 0, index: $0.int(Int32(TabColumn.count)))
            }
        }
    }

    /// The highest revision a set that left `name` (removed, or renamed away) reached; 0 for none.
    private func nameRevision(of name: String) throws(TabStoreError) -> Int {
        try firstRow("SELECT revision FROM name_revision WHERE name = ?", [.text(name)]) { $0.int(0) } ?? 0
    }

    /// For each id held by a tab, the name of its set: one statement for the whole list.
    private func holders(of ids: [TabID]) throws(TabStoreError) -> [TabID: String] {
        guard !ids.isEmpty else { return [:] }
        var holders: [TabID: String] = [:]
        try forEachRow(
            """
            SELECT t.uuid, s.name FROM json_each(?) j
            JOIN tab t ON t.uuid = j.value JOIN tab_set s ON s.id = t.set_id
            """, [.text(jsonArray(ids))]
        ) { row in holders[row.tabID(0)] = row.text(1) }
        return holders
    }

    /// All tabs of a set, in order.
    func tabs(in set: SetRecord) throws(TabStoreError) -> [TabRecord] {
        guard let setID = set.id else { return [] }
        var tabs: [TabRecord] = []
        try forEachRow(SetSQL.tabsOfSet, [.int(setID)]) { row in
            tabs.append(row.tabRecord(from: 0, index: tabs.count))
        }
        return tabs
    }

    /// Every set's name, sorted (byte order).
    func setNames() throws(TabStoreError) -> [String] {
        var names: [String] = []
        try forEachRow("SELECT name FROM tab_set ORDER BY name") { names.append($0.text(0)) }
        return names
    }

    func setCount() throws(TabStoreError) -> Int {
        try firstRow("SELECT count(*) FROM tab_set") { $0.int(0) } ?? 0
    }

    /// The count is of the set's rows (not its last position less its base, which only a
    /// sound set makes its count): the list shows what the rows say, checked or not.
    func setSummaries() throws(TabStoreError) -> [TabSetSummary] {
        var summaries: [TabSetSummary] = []
        try forEachRow(
            """
            SELECT s.name, s.revision, t.position - s.base, t.title, (SELECT count(*) FROM tab WHERE set_id = s.id)
            FROM tab_set s LEFT JOIN tab t ON t.id = s.selected_tab_id AND t.set_id = s.id
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

    func setShapes() throws(TabStoreError) -> [SetShape] {
        var shapes: [SetShape] = []
        try forEachRow(
            """
            SELECT s.name, s.base, s.revision, count(t.id), count(DISTINCT t.position), min(t.position), max(t.position),
                   s.selected_tab_id IS NOT NULL,
                   EXISTS (SELECT 1 FROM tab x WHERE x.id = s.selected_tab_id AND x.set_id = s.id),
                   max(n.revision),
                   count(t.id) - count(CASE WHEN typeof(t.uuid) = 'text' AND t.uuid GLOB ?1 AND t.uuid <> ?2 THEN 1 END),
                   (SELECT min(position) FROM closed_tab WHERE set_id = s.id), (SELECT max(position) FROM closed_tab WHERE set_id = s.id)
            FROM tab_set s LEFT JOIN tab t ON t.set_id = s.id
            -- Each set's newest change, found in one pass over the journal (which has no
            -- index on set_id: a lookup per set scanned it once per set).
            LEFT JOIN (
                SELECT c.set_id, c.revision FROM change c
                JOIN (SELECT set_id, max(id) AS id FROM change WHERE set_id IS NOT NULL GROUP BY set_id) m ON m.id = c.id
            ) n ON n.set_id = s.id
            GROUP BY s.id ORDER BY s.name
            """, [.text(TabID.textPattern), .text(TabID.unknown.uuidString)]
        ) { row in
            shapes.append(SetShape(
                name: row.text(0), base: row.int(1), revision: row.int(2), tabCount: row.int(3),
                distinctPositions: row.int(4), lowestPosition: row.optionalInt(5), highestPosition: row.optionalInt(6),
                selection: SetShape.selection(hasSelection: row.int(7) != 0, ownSelection: row.int(8) != 0),
                journaledRevision: row.optionalInt(9), tabsWithoutValidID: row.int(10),
                lowestClosedPosition: row.optionalInt(11), highestClosedPosition: row.optionalInt(12)
            ))
        }
        return shapes
    }

    func nameRevisions(outside range: ClosedRange<Int>) throws(TabStoreError) -> [(name: String, revision: Int)] {
        var names: [(name: String, revision: Int)] = []
        try forEachRow(
            "SELECT name, revision FROM name_revision WHERE revision < ? OR revision > ? ORDER BY name",
            [.int(range.lowerBound), .int(range.upperBound)]
        ) { row in names.append((row.text(0), row.int(1))) }
        return names
    }

    /// The columns of `setShapes` for one set, but its positions counted in one pass over
    /// its index entries in order (a repeat follows its twin): about 1 ms for 10,000 tabs,
    /// where count(DISTINCT) sorted them again in 3 to 5. Only a set's first read, or a
    /// write without a copy of it, pays it.
    func setShape(of set: SetRecord) throws(TabStoreError) -> SetShape {
        guard let setID = set.id else { throw .setNotFound(set: set.name) }
        return try inOneSnapshot { () throws(TabStoreError) in
            var count = 0, distinct = 0
            var lowest: Int?, highest: Int?
            try forEachRow("SELECT position FROM tab WHERE set_id = ? ORDER BY position", [.int(setID)]) { row in
                let position = row.int(0)
                if position != highest { distinct += 1 }
                if lowest == nil { lowest = position }
                highest = position
                count += 1
            }
            let shape = try firstRow(
                """
                SELECT s.base, s.revision, s.selected_tab_id IS NOT NULL,
                       EXISTS (SELECT 1 FROM tab x WHERE x.id = s.selected_tab_id AND x.set_id = s.id),
                       (SELECT min(position) FROM closed_tab WHERE set_id = s.id), (SELECT max(position) FROM closed_tab WHERE set_id = s.id)
                FROM tab_set s WHERE s.id = ?
                """, [.int(setID)]
            ) { row in
                SetShape(
                    name: set.name, base: row.int(0), revision: row.int(1), tabCount: count, distinctPositions: distinct,
                    lowestPosition: lowest, highestPosition: highest,
                    selection: SetShape.selection(hasSelection: row.int(2) != 0, ownSelection: row.int(3) != 0),
                    journaledRevision: nil, tabsWithoutValidID: nil,
                    lowestClosedPosition: row.optionalInt(4), highestClosedPosition: row.optionalInt(5)
                )
            }
            guard let shape else { throw .setNotFound(set: set.name) }
            return shape
        }
    }
}

/// A JSON array of ids, for `json_each`: ids are hex digits and dashes, nothing to escape.
func jsonArray(_ ids: [TabID]) -> String {
    "[" + ids.map { "\"\($0.uuidString)\"" }.joined(separator: ",") + "]"
}
