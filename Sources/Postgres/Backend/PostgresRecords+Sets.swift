import TabStoreKit

// Sets and tabs on the server: the statements mirror the SQLite backend's, with `$n`
// parameters, and a write answers from what it read right after locking when it can.
extension PostgresRecords {
    private static let setColumns = """
        SELECT s.id, s.revision, s.base, t.id, t.position - s.base, t.title, t.uuid, t.payload
        FROM tab_set s LEFT JOIN tab t ON t.id = s.selected_tab_id
        """
    /// Only the lock: a row locked after a wait is re-read at its newest version, but a
    /// row joined to it would still come from the snapshot taken before the wait (a
    /// selected tab another client had just added would be missing).
    private static let lockSet = "SELECT id FROM tab_set WHERE name = $1 FOR UPDATE"
    /// After the lock: a statement of its own, so it sees the last holder's commit.
    private static let readSet = setColumns + " WHERE s.name = $1"
    /// After the lock: a statement of its own, so it sees the last holder's commit.
    private static let tabsOfNamedSet = """
        SELECT t.id, t.position, t.title, t.uuid, t.payload FROM tab t JOIN tab_set s ON s.id = t.set_id
        WHERE s.name = $1 ORDER BY t.position
        """
    private static let lastClosedOfNamedSet = """
        SELECT c.id, c.title, c.position, c.was_selected, c.uuid, c.payload FROM closed_tab c
        JOIN tab_set s ON s.id = c.set_id WHERE s.name = $1 ORDER BY c.id DESC LIMIT 1
        """
    private static let nameRevisionOfName = "SELECT revision FROM name_revision WHERE name = $1"

    func setRecord(named name: String) throws(TabStoreError) -> SetRecord? {
        if cannotBeStored(name) { return nil }
        let key = ExactName(name)
        guard isWrite else { return Self.setRecord(try query(Self.readSet, [name]), name: name) }
        if let set = locked[key], set.recordIsCurrent { return set.record }
        if locked[key] != nil {
            // Locked already: only the row is read again, after the pending writes.
            let record = Self.setRecord(try query(Self.readSet, [name]), name: name)
            locked[key]?.record = record
            locked[key]?.recordIsCurrent = true
            return record
        }
        var rows: [PostgresRows]
        repeat {
            rows = try send([
                PostgresStatement(Self.lockSet, [name]), PostgresStatement(Self.readSet, [name]),
                PostgresStatement(Self.tabsOfNamedSet, [name]), PostgresStatement(Self.lastClosedOfNamedSet, [name]),
                PostgresStatement(Self.nameRevisionOfName, [name]),
            ])
            // A set another client created between the lock and the read was read but not
            // locked: lock it now.
        } while rows[0].count == 0 && rows[1].count > 0
        let record = Self.setRecord(rows[1], name: name)
        locked[key] = LockedSet(
            record: record, tabs: record.map { Self.tabs(rows[2], base: $0.base) } ?? [],
            lastClosed: .some(Self.closedTab(rows[3])), nameRevision: rows[4].count == 0 ? 0 : rows[4].requiredInt(0, 0)
        )
        return record
    }

    private static func setRecord(_ rows: PostgresRows, name: String) -> SetRecord? {
        guard rows.count > 0 else { return nil }
        return SetRecord(
            id: rows.requiredInt(0, 0), name: name, revision: rows.requiredInt(0, 1), base: rows.requiredInt(0, 2),
            selected: rows.int(0, 3).map {
                TabRecord(
                    id: $0, index: rows.requiredInt(0, 4), title: rows.text(0, 5), uuid: rows.tabID(0, 6),
                    payload: unpackPayload(rows.value(0, 7))
                )
            }
        )
    }

    /// Rows of (id, position, title, uuid, payload).
    private static func tabs(_ rows: PostgresRows, base: Int) -> [TabRecord] {
        (0..<rows.count).map { row in
            TabRecord(
                id: rows.requiredInt(row, 0), index: rows.requiredInt(row, 1) - base, title: rows.text(row, 2),
                uuid: rows.tabID(row, 3), payload: unpackPayload(rows.value(row, 4))
            )
        }
    }

    func insertSet(named name: String, revision: Int) throws(TabStoreError) -> SetRecord {
        let rows = try query("INSERT INTO tab_set (name, revision) VALUES ($1, $2) RETURNING id", [name, revision.text])
        let record = SetRecord(id: rows.requiredInt(0, 0), name: name, revision: revision, base: 0, selected: nil)
        locked[ExactName(name)] = LockedSet(record: record, tabs: [], lastClosed: .some(nil), nameRevision: revision)
        return record
    }

    func nameRevision(of name: String) throws(TabStoreError) -> Int {
        if cannotBeStored(name) { return 0 }
        if let revision = locked[ExactName(name)]?.nameRevision { return revision }
        let rows = try query(Self.nameRevisionOfName, [name])
        return rows.count == 0 ? 0 : rows.requiredInt(0, 0)
    }

    func retire(name: String, at revision: Int) throws(TabStoreError) {
        enqueue(
            """
            INSERT INTO name_revision (name, revision) VALUES ($1, $2)
            ON CONFLICT (name) DO UPDATE SET revision = greatest(name_revision.revision, excluded.revision)
            """, [name, revision.text]
        )
        locked[ExactName(name)]?.nameRevision = nil
    }

    func renameSet(id: Int, to newName: String) throws(TabStoreError) {
        enqueue("UPDATE tab_set SET name = $1 WHERE id = $2", [newName, id.text])
        locked = locked.filter { $0.value.record?.id != id }
    }

    func deleteSet(id: Int) throws(TabStoreError) {
        enqueue("DELETE FROM tab_set WHERE id = $1", [id.text])
        locked = locked.filter { $0.value.record?.id != id }
    }

    func setNames() throws(TabStoreError) -> [String] {
        let rows = try query("SELECT name FROM tab_set ORDER BY name COLLATE \"C\"")
        return (0..<rows.count).map { rows.text($0, 0) }
    }

    func setCount() throws(TabStoreError) -> Int {
        try query("SELECT count(*) FROM tab_set").requiredInt(0, 0)
    }

    func setSummaries() throws(TabStoreError) -> [TabSetSummary] {
        let rows = try query(
            """
            SELECT s.name, s.revision, t.position - s.base, t.title,
                   (SELECT max(position) FROM tab WHERE set_id = s.id) - s.base + 1
            FROM tab_set s LEFT JOIN tab t ON t.id = s.selected_tab_id
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

    func nameOfSet(holdingTab uuid: TabID) throws(TabStoreError) -> String? {
        try query("SELECT s.name FROM tab t JOIN tab_set s ON s.id = t.set_id WHERE t.uuid = $1", [uuid.uuidString]).value(0, 0)
    }

    // MARK: Tabs

    /// The tabs this write read after locking `set`, while no write has touched them.
    private func cachedTabs(of set: SetRecord) -> [TabRecord]? {
        guard let locked = lockedSet(id: set.id), locked.record?.base == set.base else { return nil }
        return locked.tabs
    }

    func tabCount(in set: SetRecord) throws(TabStoreError) -> Int {
        if let tabs = cachedTabs(of: set) { return tabs.count }
        let rows = try query("SELECT max(position) FROM tab WHERE set_id = $1", [set.id.text])
        return rows.int(0, 0).map { $0 - set.base + 1 } ?? 0
    }

    func tab(at index: Int, in set: SetRecord) throws(TabStoreError) -> TabRecord? {
        if let tabs = cachedTabs(of: set) { return tabs.indices.contains(index) ? tabs[index] : nil }
        let rows = try query(
            "SELECT id, position, title, uuid, payload FROM tab WHERE set_id = $1 AND position = $2", [set.id.text, (set.base + index).text]
        )
        return Self.tabs(rows, base: set.base).first
    }

    func tab(titled title: String, in set: SetRecord) throws(TabStoreError) -> TabRecord? {
        if cannotBeStored(title) { return nil }
        if cachedTabs(of: set) != nil, let name = locked.first(where: { $0.value.record?.id == set.id })?.key {
            return locked[name]?.tab(titled: title)
        }
        let rows = try query(
            "SELECT id, position, title, uuid, payload FROM tab WHERE set_id = $1 AND title = $2", [set.id.text, title]
        )
        return Self.tabs(rows, base: set.base).first
    }

    func tab(withID uuid: TabID, in set: SetRecord) throws(TabStoreError) -> TabRecord? {
        if let tabs = cachedTabs(of: set) { return tabs.first { $0.uuid == uuid } }
        let rows = try query(
            "SELECT id, position, title, uuid, payload FROM tab WHERE uuid = $1 AND set_id = $2", [uuid.uuidString, set.id.text]
        )
        return Self.tabs(rows, base: set.base).first
    }

    func tabs(in set: SetRecord) throws(TabStoreError) -> [TabRecord] {
        if let tabs = cachedTabs(of: set) { return tabs }
        let rows = try query("SELECT id, position, title, uuid, payload FROM tab WHERE set_id = $1 ORDER BY position", [set.id.text])
        return Self.tabs(rows, base: set.base)
    }

    /// One tab: the plain statement.
    private func insertTab(_ tab: NewTab, position: Int, inSet setID: Int) -> TabKey {
        enqueue(
            "INSERT INTO tab (set_id, position, title, uuid, payload) VALUES ($1, $2, $3, $4, $5)",
            [setID.text, position.text, tab.title, tab.uuid.uuidString, packPayload(tab.payload)]
        )
        tabsChanged()
        return .uuid(tab.uuid)
    }

    /// Many tabs in one statement: a large import sends a few arrays, not a statement a tab.
    func insertTabRows(
        _ tabs: [NewTab], firstPosition: Int, inSet setID: Int, tabWritten: (() -> Void)?
    ) throws(TabStoreError) -> [TabKey] {
        guard tabs.count > 1 else {
            let keys = tabs.map { insertTab($0, position: firstPosition, inSet: setID) }
            if !tabs.isEmpty { tabWritten?() }
            return keys
        }
        enqueue(
            """
            INSERT INTO tab (set_id, position, title, uuid, payload)
            SELECT $1, $2 + given.number - 1, given.title, given.uuid, given.payload
            FROM unnest($3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS given (title, uuid, payload, number)
            """,
            [
                setID.text, firstPosition.text, postgresArray(tabs.map(\.title)),
                postgresArray(tabs.map(\.uuid.uuidString)), postgresArray(tabs.map { packPayload($0.payload) }),
            ]
        )
        tabsChanged()
        for _ in tabs { tabWritten?() }
        return tabs.map { .uuid($0.uuid) }
    }

    func shiftTabs(in set: SetRecord, indices: Range<Int>, by delta: Int) throws(TabStoreError) {
        guard !indices.isEmpty else { return }
        enqueue(
            "UPDATE tab SET position = position + $1 WHERE set_id = $2 AND position >= $3 AND position < $4",
            [delta.text, set.id.text, (set.base + indices.lowerBound).text, (set.base + indices.upperBound).text]
        )
        tabsChanged()
    }

    func setBase(ofSet setID: Int, to base: Int) throws(TabStoreError) {
        enqueue("UPDATE tab_set SET base = $1 WHERE id = $2", [base.text, setID.text])
        setRowChanged(setID)
        tabsChanged()
    }

    func setPosition(ofTab id: Int, to position: Int) throws(TabStoreError) {
        enqueue("UPDATE tab SET position = $1 WHERE id = $2", [position.text, id.text])
        tabsChanged()
    }

    func deleteTab(id: Int) throws(TabStoreError) {
        enqueue("DELETE FROM tab WHERE id = $1", [id.text])
        tabsChanged()
    }

    func deleteTabs(ofSet setID: Int) throws(TabStoreError) {
        enqueue("DELETE FROM tab WHERE set_id = $1", [setID.text])
        tabsChanged()
    }

    func renameTab(id: Int, to newTitle: String) throws(TabStoreError) {
        enqueue("UPDATE tab SET title = $1 WHERE id = $2", [newTitle, id.text])
        tabsChanged()
    }

    func setPayload(_ payload: [String: String], ofTab id: Int) throws(TabStoreError) {
        enqueue("UPDATE tab SET payload = $1 WHERE id = $2", [packPayload(payload), id.text])
        tabsChanged()
    }

    func updateSet(id: Int, revision: Int, selecting tab: TabKey?) throws(TabStoreError) {
        switch tab {
        case let .row(tabID)?:
            enqueue("UPDATE tab_set SET revision = $1, selected_tab_id = $2 WHERE id = $3", [revision.text, tabID.text, id.text])
        case let .uuid(uuid)?:
            enqueue(
                "UPDATE tab_set SET revision = $1, selected_tab_id = (SELECT id FROM tab WHERE uuid = $2) WHERE id = $3",
                [revision.text, uuid.uuidString, id.text]
            )
        case nil:
            enqueue("UPDATE tab_set SET revision = $1, selected_tab_id = NULL WHERE id = $2", [revision.text, id.text])
        }
        // The tabs stay as they were: a selection moves none.
        setRowChanged(id)
    }

    /// The set as this write leaves it, read in the round trip that commits.
    func finalTabSet(named name: String) throws(TabStoreError) -> TabSet {
        guard isWrite else { return try loadTabSet(named: name) }
        let rows = try send(
            [PostgresStatement(Self.readSet, [name]), PostgresStatement(Self.tabsOfNamedSet, [name])], committing: true
        )
        guard let record = Self.setRecord(rows[0], name: name) else { throw .setNotFound(set: name) }
        let tabs = Self.tabs(rows[1], base: record.base).map { $0.tab(selected: $0.id == record.selected?.id) }
        return TabSet(name: name, tabs: tabs, revision: record.revision)
    }
}

extension PostgresRecords {
    /// What a check of the rules' invariants finds, `["ok"]` when nothing (as SQLite's
    /// quick_check answers): each set whose positions are not contiguous from its base,
    /// or whose selection does not match whether it has tabs. The server's deferred
    /// constraints refuse such a commit; this finds damage done around them.
    func consistencyProblems() throws(TabStoreError) -> [String] {
        let rows = try query(
            """
            SELECT s.name FROM tab_set s
            LEFT JOIN (SELECT set_id, count(*) AS n, min(position) AS low, max(position) AS high FROM tab GROUP BY set_id) t
                ON t.set_id = s.id
            WHERE (coalesce(t.n, 0) > 0 AND (t.low <> s.base OR t.high - t.low + 1 <> t.n))
               OR ((coalesce(t.n, 0) = 0) <> (s.selected_tab_id IS NULL))
            ORDER BY s.name
            """
        )
        guard rows.count > 0 else { return ["ok"] }
        return (0..<rows.count).map { "set \(rows.text($0, 0)) breaks the position or selection rules" }
    }
}

/// A text array literal: every element quoted (`"` and `\` escaped), nil as NULL.
func postgresArray(_ elements: [String?]) -> String {
    var literal = "{"
    for (offset, element) in elements.enumerated() {
        if offset > 0 { literal += "," }
        guard let element else {
            literal += "NULL"
            continue
        }
        literal += "\""
        for character in element.unicodeScalars {
            if character == "\"" || character == "\\" { literal += "\\" }
            literal.unicodeScalars.append(character)
        }
        literal += "\""
    }
    return literal + "}"
}
