import TabStoreKit

/// Sync's server side on PostgreSQL (migrations/postgresql/0012_sync.sql).
extension PostgresRecords: SyncReader, SyncServerRecords {
    /// A server's store is never a device: no edit of it is recorded for sync.
    func recordsMutations() throws(TabStoreError) -> Bool { false }

    /// A device's pushes settle its mutations one at a time: a lock per device, in the
    /// set locks' key space under a name no set can have (a control character), taken as
    /// they are, before the transaction has an id.
    func lastSettledMutation(of device: String) throws(TabStoreError) -> SettledMutation {
        let rows = try send([
            PostgresStatement(Self.lockNames, [connection.schema, postgresArray(["\u{1}sync device " + device])]),
            PostgresStatement("SELECT last_mutation, last_body FROM {schema}.sync_client WHERE device_id = $1", [device]),
        ])
        guard let number = rows[1].int(0, 0) else { return .none }
        return SettledMutation(number: number, body: rows[1].value(0, 1))
    }

    func settledMutations(of device: String, refusedFrom number: Int) throws(TabStoreError) -> (last: Int, refusals: [TabSyncRefusal]) {
        let rows = try send([
            PostgresStatement("SELECT last_mutation FROM {schema}.sync_client WHERE device_id = $1", [device]),
            PostgresStatement(
                "SELECT mutation, code, reason FROM {schema}.sync_refusal WHERE device_id = $1 AND mutation >= $2 ORDER BY mutation",
                [device, number.text]
            ),
        ])
        let refusals = (0..<rows[1].count).map { row in
            TabSyncRefusal(number: rows[1].requiredInt(row, 0), code: TabStoreError.Code(rawValue: rows[1].text(row, 1)), reason: rows[1].text(row, 2))
        }
        return (rows[0].int(0, 0) ?? 0, refusals)
    }

    /// Journal positions are writing transactions (migration 0010).
    func oldestJournalPosition() throws(TabStoreError) -> Int? {
        try query("SELECT min(xact_id)::text::bigint FROM {schema}.change").int(0, 0)
    }

    /// A mutation settled, in the transaction that applied it.
    static func settle(device: String, number: Int, body: String, refusal: TabSyncRefusal?) -> [PostgresStatement] {
        var statements = [PostgresStatement(
            """
            INSERT INTO {schema}.sync_client (device_id, last_mutation, last_body) VALUES ($1, $2, $3)
            ON CONFLICT (device_id) DO UPDATE SET last_mutation = excluded.last_mutation, last_body = excluded.last_body
            """, [device, number.text, body]
        )]
        if let refusal {
            statements.append(PostgresStatement(
                "INSERT INTO {schema}.sync_refusal (device_id, mutation, code, reason) VALUES ($1, $2, $3, $4)",
                [device, number.text, refusal.code.rawValue, refusal.reason]
            ))
        }
        return statements
    }
}
