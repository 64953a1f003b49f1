import TabStoreKit

// Sets and tabs read on the server: the same reads as the SQLite backend's, with `$n`
// parameters and names sorted byte for byte (COLLATE "C", as SQLite's BINARY).
extension PostgresRecords: TabRecords {
    /// The set row (id, revision, base), its selected tab in `TabColumn`'s columns from
    /// column 3, that tab's index, and the set's tab count. Stored values are added and
    /// subtracted as numeric: a bigint that overflowed would fail the read before the rule
    /// check could say what is wrong with the set (a result beyond `Int` reads as 0, and
    /// the check refuses the set it came from).
    static let setColumns = """
        SELECT s.id, s.revision, s.base, \(TabColumn.selectList("t")), t.position::numeric - s.base,
               (SELECT max(position) FROM {schema}.tab WHERE set_id = s.id)::numeric - s.base + 1
        FROM {schema}.tab_set s LEFT JOIN {schema}.tab t ON t.id = s.selected_tab_id
        """
    static let setNamed = setColumns + " WHERE s.name = $1"

    /// The set of a `setNamed` row, and its tab count.
    static func setRecord(_ rows: PostgresRows, name: String) -> (record: SetRecord, count: Int)? {
        guard rows.count > 0 else { return nil }
        let index = 3 + TabColumn.count
        let record = SetRecord(
            id: rows.requiredInt(0, 0), name: name, revision: rows.requiredInt(0, 1), base: rows.requiredInt(0, 2),
            selected: rows.int(0, 3).map { _ in rows.tabRecord(0, from: 3, index: rows.requiredInt(0, index)) }
        )
        return (record, rows.int(0, index + 1) ?? 0)
    }

    /// A set's tabs in order, in `TabColumn`'s columns.
    static let tabsOfSet = "SELECT \(TabColumn.selectList("t")) FROM {schema}.tab t WHERE t.set_id = $1 ORDER BY t.position"

    func setRecord(named name: String) throws(TabStoreError) -> SetRecord? {
        if cannotBeStored(name) { return nil }
        return Self.setRecord(try query(Self.setNamed, [name]), name: name)?.record
    }

    /// Rows of a tab each, in order.
    static func tabs(_ rows: PostgresRows) -> [TabRecord] {
        (0..<rows.count).map { rows.tabRecord($0, from: 0, index: $0) }
    }

    func setNames() throws(TabStoreError) -> [String] {
        let rows = try query("SELECT name FROM {schema}.tab_set ORDER BY name COLLATE \"C\"")
        return (0..<rows.count).map { rows.text($0, 0) }
    }

    /// How many sets there are: what `info` counts.
    func setCount() throws(TabStoreError) -> Int {
        try query("SELECT count(*) FROM {schema}.tab_set").requiredInt(0, 0)
    }

    func setSummaries() throws(TabStoreError) -> [TabSetSummary] {
        let rows = try query(
            """
            SELECT s.name, s.revision, t.position::numeric - s.base, t.title, (SELECT count(*) FROM {schema}.tab WHERE set_id = s.id)
            FROM {schema}.tab_set s LEFT JOIN {schema}.tab t ON t.id = s.selected_tab_id AND t.set_id = s.id
            ORDER BY s.name COLLATE "C"
            """
        )
        return (0..<rows.count).map { row in
            TabSetSummary(
                name: rows.text(row, 0), tabCount: rows.int(row, 4) ?? 0, selectedIndex: rows.int(row, 2),
                selectedTitle: rows.value(row, 3), revision: rows.requiredInt(row, 1)
            )
        }
    }

    func closedTabTitles(of set: SetRecord) throws(TabStoreError) -> [String] {
        guard let setID = set.id else { return [] }
        let rows = try query("SELECT title FROM {schema}.closed_tab WHERE set_id = $1 ORDER BY id DESC", [setID.text])
        return (0..<rows.count).map { rows.text($0, 0) }
    }

    func forEachTabText(_ body: (_ setName: String, _ title: String, _ payload: String?) -> Void) throws(TabStoreError) {
        let rows = try query("SELECT s.name, t.title, t.payload FROM {schema}.tab t JOIN {schema}.tab_set s ON s.id = t.set_id")
        for row in 0..<rows.count { body(rows.text(row, 0), rows.text(row, 1), rows.value(row, 2)) }
    }

    func rowsSummaries() throws(TabStoreError) -> [SetRowsSummary] {
        let rows = try query(
            """
            SELECT s.name, s.base, s.revision, count(t.id), count(DISTINCT t.position), min(t.position), max(t.position),
                   s.selected_tab_id IS NOT NULL,
                   EXISTS (SELECT 1 FROM {schema}.tab x WHERE x.id = s.selected_tab_id AND x.set_id = s.id),
                   max(n.revision),
                   count(t.id) - count(t.id) FILTER (WHERE t.uuid ~ $1 AND t.uuid <> $2),
                   (SELECT min(position) FROM {schema}.closed_tab WHERE set_id = s.id),
                   (SELECT max(position) FROM {schema}.closed_tab WHERE set_id = s.id)
            FROM {schema}.tab_set s LEFT JOIN {schema}.tab t ON t.set_id = s.id
            -- Each set's newest change, found in one pass over the journal (which has no
            -- index on set_id: a lookup per set scanned it once per set).
            LEFT JOIN (
                SELECT c.set_id, c.revision FROM {schema}.change c
                JOIN (SELECT set_id, max(id) AS id FROM {schema}.change WHERE set_id IS NOT NULL GROUP BY set_id) m ON m.id = c.id
            ) n ON n.set_id = s.id
            GROUP BY s.id ORDER BY s.name COLLATE "C"
            """, ["^" + TabID.textPattern + "$", TabID.unknown.uuidString]
        )
        return (0..<rows.count).map { row in
            SetRowsSummary(
                name: rows.text(row, 0), base: rows.requiredInt(row, 1), revision: rows.requiredInt(row, 2),
                tabCount: rows.requiredInt(row, 3), distinctPositions: rows.requiredInt(row, 4),
                lowestPosition: rows.int(row, 5), highestPosition: rows.int(row, 6),
                selection: SetRowsSummary.selection(hasSelection: rows.value(row, 7) == "t", ownSelection: rows.value(row, 8) == "t"),
                journaledRevision: rows.int(row, 9), tabsWithoutValidID: rows.requiredInt(row, 10),
                lowestClosedPosition: rows.int(row, 11), highestClosedPosition: rows.int(row, 12)
            )
        }
    }

    /// One set's shape (base, revision, tab count, distinct positions, lowest and highest
    /// position, whether it selects a tab and whether that is its own, its removed tabs'
    /// lowest and highest index), by name.
    static let shapeOfSet = """
        SELECT s.base, s.revision, count(t.id), count(DISTINCT t.position), min(t.position), max(t.position),
               s.selected_tab_id IS NOT NULL,
               EXISTS (SELECT 1 FROM {schema}.tab x WHERE x.id = s.selected_tab_id AND x.set_id = s.id),
               (SELECT min(position) FROM {schema}.closed_tab WHERE set_id = s.id),
               (SELECT max(position) FROM {schema}.closed_tab WHERE set_id = s.id)
        FROM {schema}.tab_set s LEFT JOIN {schema}.tab t ON t.set_id = s.id WHERE s.name = $1 GROUP BY s.id
        """

    /// The shape of a `shapeOfSet` row; nil when no set has the name.
    static func rowsSummary(_ rows: PostgresRows, name: String) -> SetRowsSummary? {
        guard rows.count > 0 else { return nil }
        return SetRowsSummary(
            name: name, base: rows.requiredInt(0, 0), revision: rows.requiredInt(0, 1), tabCount: rows.requiredInt(0, 2),
            distinctPositions: rows.requiredInt(0, 3), lowestPosition: rows.int(0, 4), highestPosition: rows.int(0, 5),
            selection: SetRowsSummary.selection(hasSelection: rows.value(0, 6) == "t", ownSelection: rows.value(0, 7) == "t"),
            journaledRevision: nil, tabsWithoutValidID: nil, lowestClosedPosition: rows.int(0, 8), highestClosedPosition: rows.int(0, 9)
        )
    }

    func nameRevisions(outside range: ClosedRange<Int>) throws(TabStoreError) -> [(name: String, revision: Int)] {
        let rows = try query(
            "SELECT name, revision FROM {schema}.name_revision WHERE revision < $1 OR revision > $2 ORDER BY name COLLATE \"C\"",
            [range.lowerBound.text, range.upperBound.text]
        )
        return (0..<rows.count).map { (rows.text($0, 0), rows.requiredInt($0, 1)) }
    }

    func rowsSummary(of set: SetRecord) throws(TabStoreError) -> SetRowsSummary {
        guard let shape = Self.rowsSummary(try query(Self.shapeOfSet, [set.name]), name: set.name) else { throw TabStoreError(.setNotFound(set: set.name)) }
        return shape
    }

    /// Both reads in one pipeline: one round trip.
    func tabsWithRowsSummary(of set: SetRecord) throws(TabStoreError) -> (tabs: [TabRecord], shape: SetRowsSummary) {
        guard let setID = set.id else { throw TabStoreError(.setNotFound(set: set.name)) }
        let rows = try send([PostgresStatement(Self.shapeOfSet, [set.name]), PostgresStatement(Self.tabsOfSet, [setID.text])])
        guard let shape = Self.rowsSummary(rows[0], name: set.name) else { throw TabStoreError(.setNotFound(set: set.name)) }
        return (Self.tabs(rows[1]), shape)
    }
}
