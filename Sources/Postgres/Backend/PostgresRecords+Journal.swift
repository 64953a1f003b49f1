import TabStoreKit

// The change journal on the server, in the columns `JournalColumn` declares.
extension PostgresRecords {
    /// The notifications of a write to the sets `names` in the schema `schema`, sent once per
    /// transaction however many changes it holds: one on `PostgresListener.channel` (what a
    /// watcher of every set listens to) whose payload is the set's name, and one on each
    /// set's own channel, so a watcher of one set is woken by its set only; each only where
    /// someone listens (`PostgresChannel.notifyWatched`).
    static func notification(ofSets names: [String], schema: String) -> PostgresStatement {
        var channels: [String?] = [], payloads: [String?] = []
        var seen: [[UInt8]] = []
        for name in names where !seen.contains(Array(name.utf8)) {
            seen.append(Array(name.utf8))
            channels += [PostgresListener.channel, PostgresListener.channel(ofSet: name, schema: schema)]
            // A payload holds at most 7,999 bytes: a longer name is said as none (every set).
            let payload = name.utf8.count <= PostgresListener.longestPayload ? name : ""
            payloads += [payload, ""]
        }
        let keys = channels.map { String(PostgresChannel.watchKey($0 ?? "", schema: schema)) }
        return PostgresStatement(PostgresChannel.notifyWatched, [postgresArray(channels), postgresArray(payloads), "{" + keys.joined(separator: ",") + "}"])
    }

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

    /// The journal's horizon: the lowest transaction still running that writes this
    /// schema's sets, else the first one not begun. Every row below it is there for good;
    /// rows at or above it may yet be joined by rows of a transaction that has not
    /// committed (migration 0010). A transaction still running at the lock table's look
    /// (taken after the statement's snapshot) and holding no set lock of this schema writes
    /// none of its rows: a write takes its locks before its transaction id. So the writes
    /// of other schemas and databases on the server, and long transactions that are not
    /// tabstore's, hold no observer back.
    static let journalHorizon = journalHorizon(lockTable: "pg_catalog.pg_locks")

    /// The horizon as read from `lockTable` (pg_locks' columns; a test gives the view the
    /// server shows at a chosen moment). A transaction's locks are matched by the server
    /// process that holds them: one that is ending shows its virtual id as ended (n/0) on
    /// the locks read after that point, though it still holds them; the virtual id still
    /// matches the locks of a prepared transaction, which no process holds.
    static func journalHorizon(lockTable: String) -> String {
        """
        (WITH locks AS MATERIALIZED (
            SELECT locktype, mode, granted, pid, virtualtransaction, transactionid, database, classid, objsubid FROM \(lockTable)
        ), others AS (
            SELECT t.transactionid FROM locks t
            WHERE t.locktype = 'transactionid' AND t.mode = 'ExclusiveLock' AND t.granted AND NOT EXISTS (
                SELECT 1 FROM locks a
                WHERE (a.pid = t.pid OR a.virtualtransaction = t.virtualtransaction) AND a.locktype = 'advisory' AND a.objsubid = 2
                AND a.classid = pg_catalog.hashtext(pg_catalog.current_schema())::oid
                AND a.database = (SELECT oid FROM pg_catalog.pg_database WHERE datname = pg_catalog.current_database())
            )
        )
        SELECT coalesce(min(x), pg_catalog.pg_snapshot_xmax(pg_catalog.pg_current_snapshot()))
        FROM pg_catalog.pg_snapshot_xip(pg_catalog.pg_current_snapshot()) AS x
        WHERE NOT EXISTS (SELECT 1 FROM others WHERE others.transactionid = x::xid))
        """
    }

    /// Changes after a position ($1), in journal order: by writing transaction, then id.
    /// With each, its transaction (as text) and whether that is below the journal's
    /// horizon: rows at or above it are left for a later read. The lock table is looked at
    /// only when a row is not below every running transaction. Rows before migration 0010
    /// all have transaction 1.
    private static func changesAfter(where condition: String) -> String {
        """
        SELECT c.xact_id::text, c.xact_id < h.xmin OR c.xact_id < \(journalHorizon), \(JournalColumn.selectList.split(separator: ", ").map { "c." + $0 }.joined(separator: ", "))
        FROM {schema}.change c CROSS JOIN (SELECT pg_catalog.pg_snapshot_xmin(pg_catalog.pg_current_snapshot()) AS xmin) h
        WHERE \(condition) ORDER BY c.xact_id, c.id
        """
    }

    private static let changesOfEverySet = changesAfter(where: "c.xact_id > $1::xid8")
    /// Those of the sets named $2 and, through the set id, of what they were renamed to:
    /// looked up by name first, so a watcher of an idle set reads nothing of the others.
    private static let changesOfSets = changesAfter(where: """
        c.id IN (
            WITH named AS (SELECT id, set_id FROM {schema}.change WHERE set_name = ANY($2::text[]) AND xact_id > $1::xid8)
            SELECT id FROM named
            UNION SELECT x.id FROM {schema}.change x WHERE x.set_id IN (SELECT set_id FROM named) AND x.xact_id > $1::xid8
        )
        """)

    /// The changes whose transaction is after `position` (a transaction id, 0 for the
    /// journal's start) and below the horizon, of the sets `names` (nil: every set), with
    /// that transaction as their position; `heldBack`: whether committed changes were left
    /// for a later read, behind a transaction still running.
    func changes(after position: Int, inSets names: [String]?) throws(TabStoreError) -> (changes: [(id: Int, change: TabChange)], heldBack: Bool) {
        let rows = if let names {
            try query(Self.changesOfSets, [position.text, postgresArray(names.filter { !cannotBeStored($0) })])
        } else {
            try query(Self.changesOfEverySet, [position.text])
        }
        var changes: [(id: Int, change: TabChange)] = []
        for row in 0..<rows.count {
            guard rows.value(row, 1) == "t" else { return (changes, true) }
            // The row's columns start after the transaction and the horizon flag.
            if let change = Self.change(rows, row, from: 3) { changes.append((rows.requiredInt(row, 0), change)) }
        }
        return (changes, false)
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

    /// The position from which an observer starts: just below the journal's horizon, so
    /// that a write still running, whatever its id, is read when it commits, and one that
    /// committed before is not.
    func lastChangeID() throws(TabStoreError) -> Int {
        try query("SELECT \(Self.journalHorizon)::text::bigint - 1").requiredInt(0, 0)
    }

    /// A journal row read back; `nil` for a row this binary cannot read (skipped, not fatal).
    private static func change(_ rows: PostgresRows, _ row: Int, from first: Int = 1) -> TabChange? {
        JournalRow.change { column in
            guard let text = rows.value(row, column.rawValue + first) else { return nil }
            guard column.holdsIntegers else { return .text(text) }
            return Int(text).map(JournalValue.int)
        }
    }
}
