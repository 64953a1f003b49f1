/// A set with one of its tabs (nil: none at the index asked).
private typealias SetAndTab = (record: SetRecord, tab: TabRecord?)

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

    /// A set's tabs in order, each with its stored position after the tab's columns; and one
    /// tab with its index (after the tab's columns) found by position, title or id.
    static let tabsOfSet = "SELECT \(TabColumn.selectList("t")), t.position FROM tab t WHERE t.set_id = ? ORDER BY t.position"
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
            return (Self.setRecord(row, name: name), row.isNull(tab) ? nil : row.tabRecord(from: tab, index: index))
        }
    }

    func snapshot(_ request: SnapshotRequest) throws(TabStoreError) -> SetSnapshot {
        let name = request.setName
        var record: SetRecord?
        var count: Int?
        var found: [FoundTab] = []
        var tabs: [TabRecord]?
        // The shape, counted as all tabs are read when they are.
        var counted: SetRowsSummary?
        let lookups = request.lookups
        if let index = request.onlyIndex {
            // One tab at an index (a select): read with the set, in one statement.
            let current = try setRecordAndTab(named: name, at: index)
            record = current?.record
            if let tab = current?.tab { found = [FoundTab(lookup: .index(index), tab: tab)] }
            if let record, request.readsAllTabs(atRevision: record.revision) { (tabs, counted) = try tabsWithRowsSummary(of: record) }
        } else {
            if request.needsTabCount {
                let current = try setRecordAndCount(named: name)
                (record, count) = (current?.record, current?.count)
            } else {
                record = try setRecord(named: name)
            }
            if let record, request.readsAllTabs(atRevision: record.revision) { (tabs, counted) = try tabsWithRowsSummary(of: record) }
            if let tabs {
                found = tabs.answering(lookups)
            } else if let record {
                for lookup in lookups {
                    if let tab = try self.tab(lookup, in: record, count: count) { found.append(FoundTab(lookup: lookup, tab: tab)) }
                }
            }
        }
        // An index the request names has no tab: the count then says why.
        let missesAnIndex = lookups.contains { lookup in
            if case .index = lookup { return !found.contains { $0.lookup == lookup } }
            return false
        }
        if count == nil, let record, missesAnIndex {
            count = try setRecordAndCount(named: record.name)?.count
        }
        var shape = counted
        if shape == nil, let record, let held = request.tabsForResult.held {
            shape = try rowsSummary(of: record, fromCopy: held, lookups: lookups, found: found)
        }
        if shape == nil, let record { shape = try rowsSummary(of: record) }
        var lastClosed: ClosedTabRecord?
        if request.lastClosed, let record { lastClosed = try lastClosedTab(of: record) }
        var other: OtherName?
        if let otherName = request.otherName {
            other = OtherName(name: otherName, record: try setRecord(named: otherName), nameRevision: try nameRevision(of: otherName))
        }
        return SetSnapshot(
            name: name, record: record, shape: shape, tabCount: count ?? tabs?.count ?? 0,
            nameRevision: record == nil ? try nameRevision(of: name) : 0,
            tabs: tabs, found: found, lastClosed: lastClosed, other: other, holders: try holders(of: request.holdersOf)
        )
    }

    /// The shape of a set the store holds a copy of at the revision read: the copy stands for
    /// its rows (see `SetCache`) when it has the tab the row selects, each tab the rows gave
    /// the lookups at the same index, and a tab at each index looked up exactly when the rows
    /// have one; its removed tabs' indices, which no copy holds, are read. Nil when the copy cannot stand for the rows
    /// (then they are counted).
    private func rowsSummary(
        of record: SetRecord, fromCopy held: TabSet, lookups: [TabLookup], found: [FoundTab]
    ) throws(TabStoreError) -> SetRowsSummary? {
        let tabs = held.tabs
        func fits(_ tab: TabRecord) -> Bool { tabs.indices.contains(tab.index) && tabs[tab.index].id == tab.uuid }
        // The rows have a tab at an index the request names exactly when the copy has one.
        func indexFits(_ lookup: TabLookup) -> Bool {
            guard case let .index(index) = lookup else { return true }
            let copyHasIt = tabs.indices.contains(index < 0 ? index + tabs.count : index)
            return copyHasIt == found.contains { $0.lookup == lookup }
        }
        // The copy selects one tab (it is sound): the selected row's tab is it exactly when
        // that tab is selected, found without a scan through a large set.
        guard let setID = record.id, held.revision == record.revision, let selected = record.selected,
              fits(selected), tabs[selected.index].isSelected, found.allSatisfy({ fits($0.tab) }),
              lookups.allSatisfy(indexFits),
              RuleCheck.positionRange.contains(record.base) else { return nil }
        let closed = try firstRow("SELECT min(position), max(position) FROM closed_tab WHERE set_id = ?", [.int(setID)]) { row in
            (lowest: row.optionalInt(0), highest: row.optionalInt(1))
        }
        return SetRowsSummary(
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

    /// All tabs of a set, in order, their positions counted into `positions` on the way.
    private func tabs(in set: SetRecord, counting positions: inout PositionCount) throws(TabStoreError) -> [TabRecord] {
        guard let setID = set.id else { return [] }
        var tabs: [TabRecord] = []
        try forEachRow(SetSQL.tabsOfSet, [.int(setID)]) { row in
            tabs.append(row.tabRecord(from: 0, index: tabs.count))
            positions.add(row.int(Int32(TabColumn.count)))
        }
        return tabs
    }

    /// The tabs and the shape from one pass over the set's rows: the positions are counted
    /// as the tabs are read, not read again.
    func tabsWithRowsSummary(of set: SetRecord) throws(TabStoreError) -> (tabs: [TabRecord], shape: SetRowsSummary) {
        try inOneSnapshot { () throws(TabStoreError) in
            var positions = PositionCount()
            let tabs = try tabs(in: set, counting: &positions)
            return (tabs, try rowsSummary(of: set, positions: positions))
        }
    }

    /// Every set's name, sorted (byte order).
    func setNames() throws(TabStoreError) -> [String] {
        var names: [String] = []
        try forEachRow("SELECT name FROM tab_set ORDER BY name") { names.append($0.text(0)) }
        return names
    }

    /// How many sets there are: what `info` counts.
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

    func rowsSummaries() throws(TabStoreError) -> [SetRowsSummary] {
        var shapes: [SetRowsSummary] = []
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
            shapes.append(SetRowsSummary(
                name: row.text(0), base: row.int(1), revision: row.int(2), tabCount: row.int(3),
                distinctPositions: row.int(4), lowestPosition: row.optionalInt(5), highestPosition: row.optionalInt(6),
                selection: SetRowsSummary.selection(hasSelection: row.int(7) != 0, ownSelection: row.int(8) != 0),
                journaledRevision: row.optionalInt(9), tabsWithoutValidID: row.int(10),
                lowestClosedPosition: row.optionalInt(11), highestClosedPosition: row.optionalInt(12)
            ))
        }
        return shapes
    }

    func forEachTabText(_ body: (_ setName: String, _ title: String, _ payload: String?) -> Void) throws(TabStoreError) {
        try forEachRow("SELECT s.name, t.title, t.payload FROM tab t JOIN tab_set s ON s.id = t.set_id") { row in
            body(row.text(0), row.text(1), row.optionalText(2))
        }
    }

    func nameRevisions(outside range: ClosedRange<Int>) throws(TabStoreError) -> [(name: String, revision: Int)] {
        var names: [(name: String, revision: Int)] = []
        try forEachRow(
            "SELECT name, revision FROM name_revision WHERE revision < ? OR revision > ? ORDER BY name",
            [.int(range.lowerBound), .int(range.upperBound)]
        ) { row in names.append((row.text(0), row.int(1))) }
        return names
    }

    /// The columns of `rowsSummaries` for one set, but its positions counted in one pass over
    /// its index entries in order, where count(DISTINCT) would sort them again. Only a set's
    /// first read, or a write without a copy of it, pays it.
    func rowsSummary(of set: SetRecord) throws(TabStoreError) -> SetRowsSummary {
        guard let setID = set.id else { throw TabStoreError(.setNotFound(set: set.name)) }
        return try inOneSnapshot { () throws(TabStoreError) in
            var positions = PositionCount()
            try forEachRow("SELECT position FROM tab WHERE set_id = ? ORDER BY position", [.int(setID)]) { row in
                positions.add(row.int(0))
            }
            return try rowsSummary(of: set, positions: positions)
        }
    }

    /// The shape of `set`, whose tabs' positions are `positions`: the rest is read from the
    /// set's row, in the caller's snapshot.
    private func rowsSummary(of set: SetRecord, positions: PositionCount) throws(TabStoreError) -> SetRowsSummary {
        guard let setID = set.id else { throw TabStoreError(.setNotFound(set: set.name)) }
        let shape = try firstRow(
            """
            SELECT s.base, s.revision, s.selected_tab_id IS NOT NULL,
                   EXISTS (SELECT 1 FROM tab x WHERE x.id = s.selected_tab_id AND x.set_id = s.id),
                   (SELECT min(position) FROM closed_tab WHERE set_id = s.id), (SELECT max(position) FROM closed_tab WHERE set_id = s.id)
            FROM tab_set s WHERE s.id = ?
            """, [.int(setID)]
        ) { row in
            SetRowsSummary(
                name: set.name, base: row.int(0), revision: row.int(1), tabCount: positions.count,
                distinctPositions: positions.distinct, lowestPosition: positions.lowest, highestPosition: positions.highest,
                selection: SetRowsSummary.selection(hasSelection: row.int(2) != 0, ownSelection: row.int(3) != 0),
                journaledRevision: nil, tabsWithoutValidID: nil,
                lowestClosedPosition: row.optionalInt(4), highestClosedPosition: row.optionalInt(5)
            )
        }
        guard let shape else { throw TabStoreError(.setNotFound(set: set.name)) }
        return shape
    }
}

/// A set's tab positions counted as its rows give them, in order: a repeat follows its twin.
private struct PositionCount {
    var count = 0
    var distinct = 0
    var lowest: Int?
    var highest: Int?

    mutating func add(_ position: Int) {
        if position != highest { distinct += 1 }
        if lowest == nil { lowest = position }
        highest = position
        count += 1
    }
}

/// A JSON array of ids, for `json_each`: ids are hex digits and dashes, nothing to escape.
func jsonArray(_ ids: [TabID]) -> String {
    "[" + ids.map { "\"\($0.uuidString)\"" }.joined(separator: ",") + "]"
}
