import TabStoreKit

/// Executing a rule's plan on the server: every write rendered as a statement, sent as
/// one pipeline ending in COMMIT (one round trip; one per 500 statements for a large
/// import).
extension PostgresRecords {
    /// Sends the plan and its COMMIT; its journal rows carry `changeID`.
    func commit(_ plan: WritePlan, changeID: String, progress: ((Int) -> Void)?) throws(TabStoreError) {
        var statements: [PostgresStatement] = []
        /// Tabs done once the statements up to each index have run.
        var tabsDone: [(through: Int, tabs: Int)] = []
        var tabs = 0
        /// The sets the journal rows tell of (a renamed set by both names), to notify.
        var journaledSets: [String] = []
        func add(_ sql: String, _ parameters: [String?]) {
            statements.append(PostgresStatement(sql, parameters))
        }
        for write in plan.writes {
            switch write {
            case let .insertSet(name, revision):
                add("INSERT INTO {schema}.tab_set (name, revision) VALUES ($1, $2)", [name, revision.text])
            case let .renameSet(set, newName):
                add("UPDATE {schema}.tab_set SET name = $1 WHERE id = \(set.sql(2))", [newName, set.parameter])
            case let .deleteSet(set):
                // Its tabs and removed tabs go with it (foreign keys cascade).
                add("DELETE FROM {schema}.tab_set WHERE id = \(set.sql(1))", [set.parameter])
            case let .retireName(name, revision):
                add(
                    """
                    INSERT INTO {schema}.name_revision (name, revision) VALUES ($1, $2)
                    ON CONFLICT (name) DO UPDATE SET revision = greatest(name_revision.revision, excluded.revision)
                    """, [name, revision.text]
                )
            case let .setBase(set, base):
                add("UPDATE {schema}.tab_set SET base = $1 WHERE id = \(set.sql(2))", [base.text, set.parameter])
            case let .updateSet(set, revision, selecting):
                let (selected, parameter) = switch selecting {
                case let .row(id)?: ("$2::bigint", id.text)
                case let .uuid(uuid)?: ("(SELECT id FROM {schema}.tab WHERE uuid = $2)", uuid.uuidString)
                case let .position(position)?: ("(SELECT id FROM {schema}.tab WHERE set_id = \(set.sql(3)) AND position = $2)", position.text)
                case nil: ("$2::bigint", nil as String?)
                }
                add("UPDATE {schema}.tab_set SET revision = $1, selected_tab_id = \(selected) WHERE id = \(set.sql(3))", [revision.text, parameter, set.parameter])
            case let .shiftTabs(set, positions, delta):
                add(
                    "UPDATE {schema}.tab SET position = position + $1 WHERE set_id = \(set.sql(2)) AND position >= $3 AND position < $4",
                    [delta.text, set.parameter, positions.lowerBound.text, positions.upperBound.text]
                )
            case let .setPosition(tab, position):
                add("UPDATE {schema}.tab SET position = $1 WHERE id = $2", [position.text, tab.text])
            case let .insertTabs(new, set, firstPosition):
                // One statement for the run: a large import sends a few arrays, not a statement a tab.
                add(
                    """
                    INSERT INTO {schema}.tab (set_id, position, title, uuid, payload)
                    SELECT \(set.sql(1)), $2 + given.number - 1, given.title, given.uuid, given.payload
                    FROM unnest($3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS given (title, uuid, payload, number)
                    """,
                    [
                        set.parameter, firstPosition.text, postgresArray(new.map(\.title)),
                        postgresArray(new.map(\.uuid.uuidString)), postgresArray(new.map { packPayload($0.payload) }),
                    ]
                )
                tabs += new.count
                tabsDone.append((statements.count - 1, tabs))
            case let .deleteTabs(ids):
                add("DELETE FROM {schema}.tab WHERE id = ANY($1::bigint[])", [postgresArray(ids)])
            case let .deleteAllTabs(set):
                add("DELETE FROM {schema}.tab WHERE set_id = \(set.sql(1))", [set.parameter])
            case let .renameTab(tab, title):
                add("UPDATE {schema}.tab SET title = $1 WHERE id = $2", [title, tab.text])
            case let .setPayload(tab, payload):
                add("UPDATE {schema}.tab SET payload = $1 WHERE id = $2", [packPayload(payload), tab.text])
            case let .rememberClosed(closing, set, limit):
                add(
                    """
                    INSERT INTO {schema}.closed_tab (set_id, title, position, was_selected, uuid, payload)
                    SELECT \(set.sql(1)), given.title, given.position, given.was_selected, given.uuid, given.payload
                    FROM unnest($2::text[], $3::bigint[], $4::integer[], $5::text[], $6::text[]) WITH ORDINALITY
                        AS given (title, position, was_selected, uuid, payload, number)
                    ORDER BY given.number
                    """,
                    [
                        set.parameter, postgresArray(closing.map(\.title)), postgresArray(closing.map(\.index)),
                        postgresArray(closing.map { $0.wasSelected ? 1 : 0 }), postgresArray(closing.map(\.uuid.uuidString)),
                        postgresArray(closing.map { packPayload($0.payload) }),
                    ]
                )
                add(
                    """
                    DELETE FROM {schema}.closed_tab WHERE set_id = \(set.sql(1)) AND id NOT IN
                        (SELECT id FROM {schema}.closed_tab WHERE set_id = \(set.sql(1)) ORDER BY id DESC LIMIT $2)
                    """, [set.parameter, limit.text]
                )
            case let .deleteClosedTab(id):
                add("DELETE FROM {schema}.closed_tab WHERE id = $1", [id.text])
            case let .forgetClosedTabs(ids):
                add("DELETE FROM {schema}.closed_tab WHERE uuid = ANY($1::text[])", [postgresArray(ids.map(\.uuidString))])
            case let .forgetClosedTabsBackIn(set):
                add(
                    """
                    DELETE FROM {schema}.closed_tab WHERE set_id = \(set.sql(1))
                    AND EXISTS (SELECT 1 FROM {schema}.tab WHERE tab.set_id = closed_tab.set_id AND tab.title = closed_tab.title)
                    """, [set.parameter]
                )
            case let .journal(entry):
                journaledSets.append(entry.setName)
                if case let .setRenamed(_, to) = entry.event { journaledSets.append(to) }
                let statement = Self.journal(entry, changeID: changeID)
                add(statement.sql, statement.parameters)
            case let .unlinkJournal(set):
                add("UPDATE {schema}.change SET set_id = NULL WHERE set_id = \(set.sql(1))", [set.parameter])
            case let .skipTabs(count):
                tabs += count
                tabsDone.append((statements.count - 1, tabs))
            case let .settleMutation(device, number, body, refusal):
                for statement in Self.settle(device: device, number: number, body: body, refusal: refusal) { add(statement.sql, statement.parameters) }
            case .recordMutations, .updateSyncDevice:
                // A server's store is never a device (its `syncDevice` is nil).
                throw TabStoreError(.syncNeedsAFile(database: server))
            }
        }
        if !journaledSets.isEmpty {
            let notification = Self.notification(ofSets: journaledSets, schema: connection.schema)
            add(notification.sql, notification.parameters)
        }
        progressAtCommit = tabsDone.last?.tabs
        try send(statements, committing: true, sent: { through in
            // Progress counts the tabs of every statement the server has answered.
            if let done = tabsDone.last(where: { $0.through < through }), done.tabs != self.progressReported {
                self.progressReported = done.tabs
                progress?(done.tabs)
            }
        })
    }
}

extension SetRef {
    /// The set's id in SQL, as parameter `$n`: the id itself, or a lookup by name for a
    /// set the transaction creates.
    func sql(_ n: Int) -> String {
        switch self {
        case .id: "$\(n)::bigint"
        case .new: "(SELECT id FROM {schema}.tab_set WHERE name = $\(n))"
        }
    }

    /// The value of that parameter.
    var parameter: String? {
        switch self {
        case let .id(id): id.text
        case let .new(name): name
        }
    }
}
