import TabStoreKit

/// A rule's snapshot on the server: the set's lock and every read the rule declared, sent
/// in one round trip (with the transaction's BEGIN, for its first set).
extension PostgresRecords: SnapshotReader {
    /// The write lock of the names a rule reads (`PostgresLock.names`).
    static let lockNames = PostgresLock.names
    /// A set's tabs in order, after the lock; with $2, none when the set is still at that
    /// revision (the store holds it). Tabs are in `TabColumn`'s columns.
    private static let tabsOfNamedSet = """
        SELECT \(TabColumn.selectList("t")) FROM {schema}.tab t JOIN {schema}.tab_set s ON s.id = t.set_id
        WHERE s.name = $1 AND s.revision IS DISTINCT FROM $2::bigint ORDER BY t.position
        """
    /// Found tabs, then their index. In numeric, as in `setColumns`: the rule check judges
    /// stored values after the read.
    private static let tabsFound = "SELECT \(TabColumn.selectList("t")), t.position::numeric - s.base FROM {schema}.tab t JOIN {schema}.tab_set s ON s.id = t.set_id"
    private static let tabsTitled = tabsFound + " WHERE s.name = $1 AND t.title = ANY($2::text[])"
    private static let tabsWithIDs = tabsFound + " WHERE s.name = $1 AND t.uuid = ANY($2::text[])"
    /// Tabs at indices ($2) and at indices from the end ($3, negative): a tab, its index,
    /// its index from the end.
    private static let tabsAtIndices = """
        SELECT \(TabColumn.selectList("t")), t.position::numeric - s.base, t.position - e.top
        FROM {schema}.tab t JOIN {schema}.tab_set s ON s.id = t.set_id
        CROSS JOIN LATERAL (SELECT max(position)::numeric + 1 AS top FROM {schema}.tab WHERE set_id = s.id) e
        WHERE s.name = $1 AND (t.position::numeric - s.base = ANY($2::numeric[]) OR t.position - e.top = ANY($3::numeric[]))
        """
    private static let lastClosedOfSet = """
        SELECT c.id, c.title, c.position, c.was_selected, c.uuid, c.payload FROM {schema}.closed_tab c
        JOIN {schema}.tab_set s ON s.id = c.set_id WHERE s.name = $1 ORDER BY c.id DESC LIMIT 1
        """
    private static let nameRevision = "SELECT revision FROM {schema}.name_revision WHERE name = $1"
    private static let holders = "SELECT t.uuid, s.name FROM {schema}.tab t JOIN {schema}.tab_set s ON s.id = t.set_id WHERE t.uuid = ANY($1::text[])"

    func snapshot(_ request: SnapshotRequest) throws(TabStoreError) -> SetSnapshot {
        let name = request.setName
        // A text parameter ends at a NUL: the server would be asked about another name.
        if cannotBeStored(name) { return SetSnapshot(missing: name) }
        var titles: [String] = [], ids: [String] = [], indices: [Int] = []
        for lookup in request.lookups {
            switch lookup {
            // A title a server cannot hold (NUL) names no tab: not asked.
            case let .title(title): if !cannotBeStored(title.text) { titles.append(title.text) }
            case let .id(id): ids.append(id.uuidString)
            case let .index(index): indices.append(index)
            }
        }
        let known = request.tabsForResult.held?.revision
        let readsTabs = request.allTabs || request.tabsForResult.isWanted
        let asksOther = request.otherName.map { !cannotBeStored($0) } ?? false
        let locked: [String?] = [name] + (asksOther ? [request.otherName] : [])
        var statements = [
            PostgresStatement(Self.lockNames, [connection.schema, postgresArray(locked)]), PostgresStatement(Self.setNamed, [name]),
            PostgresStatement(Self.nameRevision, [name]), PostgresStatement(Self.shapeOfSet, [name]),
        ]
        // Optional reads, each remembered by its place in the pipeline.
        func add(_ statement: PostgresStatement, if wanted: Bool) -> Int? {
            guard wanted else { return nil }
            statements.append(statement)
            return statements.count - 1
        }
        let tabsAt = add(PostgresStatement(Self.tabsOfNamedSet, [name, request.allTabs ? nil : known?.text]), if: readsTabs)
        // Lookups are answered from the tabs when all of them are read.
        let titledAt = add(PostgresStatement(Self.tabsTitled, [name, postgresArray(titles)]), if: !titles.isEmpty && !request.allTabs)
        let withIDsAt = add(PostgresStatement(Self.tabsWithIDs, [name, postgresArray(ids)]), if: !ids.isEmpty && !request.allTabs)
        let fromStart = indices.filter { $0 >= 0 }, fromEnd = indices.filter { $0 < 0 }
        let indexedAt = add(
            PostgresStatement(Self.tabsAtIndices, [name, postgresArray(fromStart), postgresArray(fromEnd)]),
            if: !indices.isEmpty && !request.allTabs
        )
        let closedAt = add(PostgresStatement(Self.lastClosedOfSet, [name]), if: request.lastClosed)
        let otherAt = add(PostgresStatement(Self.setNamed, [request.otherName]), if: asksOther)
        let otherRevisionAt = add(PostgresStatement(Self.nameRevision, [request.otherName]), if: asksOther)
        let holdersAt = add(
            PostgresStatement(Self.holders, [postgresArray(request.holdersOf.map(\.uuidString))]), if: !request.holdersOf.isEmpty
        )
        let rows = try send(statements)
        let current = Self.setRecord(rows[1], name: name)
        let record = current?.record
        let count = current?.count ?? 0
        var tabs: [TabRecord]?
        if let tabsAt, let record, request.readsAllTabs(atRevision: record.revision) {
            tabs = Self.tabs(rows[tabsAt])
        }
        var found: [FoundTab] = []
        if request.allTabs {
            found = (tabs ?? []).answering(request.lookups)
        } else {
            for tab in titledAt.map({ Self.foundTabs(rows[$0]) }) ?? [] { found.append(FoundTab(lookup: .title(ExactName(tab.title)), tab: tab)) }
            for tab in withIDsAt.map({ Self.foundTabs(rows[$0]) }) ?? [] { found.append(FoundTab(lookup: .id(tab.uuid), tab: tab)) }
            if let indexedAt {
                let indexed = rows[indexedAt]
                for (row, tab) in Self.foundTabs(indexed).enumerated() {
                    if fromStart.contains(tab.index) { found.append(FoundTab(lookup: .index(tab.index), tab: tab)) }
                    if let fromEndIndex = indexed.int(row, TabColumn.count + 1), fromEnd.contains(fromEndIndex) { found.append(FoundTab(lookup: .index(fromEndIndex), tab: tab)) }
                }
            }
        }
        return SetSnapshot(
            name: name, record: record, shape: record == nil ? nil : Self.rowsSummary(rows[3], name: name), tabCount: count,
            nameRevision: rows[2].int(0, 0) ?? 0, tabs: tabs, found: found,
            lastClosed: closedAt.flatMap { Self.closedTab(rows[$0]) },
            other: request.otherName.map { otherName in
                OtherName(
                    name: otherName, record: otherAt.flatMap { Self.setRecord(rows[$0], name: otherName)?.record },
                    nameRevision: otherRevisionAt.flatMap { rows[$0].int(0, 0) } ?? 0
                )
            },
            holders: holdersAt.map { at in
                Dictionary((0..<rows[at].count).map { (rows[at].tabID($0, 0), rows[at].text($0, 1)) }, uniquingKeysWith: { first, _ in first })
            } ?? [:]
        )
    }

    /// Rows of a tab and its index.
    private static func foundTabs(_ rows: PostgresRows) -> [TabRecord] {
        (0..<rows.count).map { rows.tabRecord($0, from: 0, index: rows.requiredInt($0, TabColumn.count)) }
    }

    /// The first row of (id, title, position, was_selected, uuid, payload), if any.
    static func closedTab(_ rows: PostgresRows) -> ClosedTabRecord? {
        guard rows.count > 0 else { return nil }
        return ClosedTabRecord(
            id: rows.requiredInt(0, 0), title: rows.text(0, 1), position: rows.requiredInt(0, 2),
            wasSelected: rows.requiredInt(0, 3) != 0, uuid: rows.value(0, 4).flatMap(TabID.init) ?? TabID(),
            payload: unpackPayload(rows.value(0, 5))
        )
    }
}
