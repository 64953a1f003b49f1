import TabStoreKit

/// What a role needs to use a store another role created (TabStoreKit.docc, PostgreSQL and failover, "Another role"), and,
/// when the server refused a statement for want of a privilege (42501, whose message does
/// not say which), the first one this role lacks.
enum PostgresPrivileges {
    /// Each table and the privileges tabstore's statements need on it. Identity columns
    /// need nothing on their sequences.
    static let tables: [(name: String, privileges: [String])] = [
        ("tabstore_schema", ["SELECT"]),
        ("tab_set", ["SELECT", "INSERT", "UPDATE", "DELETE"]),
        ("tab", ["SELECT", "INSERT", "UPDATE", "DELETE"]),
        ("closed_tab", ["SELECT", "INSERT", "UPDATE", "DELETE"]),
        ("change", ["SELECT", "INSERT", "UPDATE", "DELETE"]),
        ("name_revision", ["SELECT", "INSERT", "UPDATE", "DELETE"]),
        ("sync_client", ["SELECT", "INSERT", "UPDATE"]),
        ("sync_refusal", ["SELECT", "INSERT"]),
    ]

    /// `error` with the privilege and the role named, when it is a refused privilege
    /// (`.permissionDenied` not yet naming one); any other error as it is. `migrating`:
    /// the refused statement was a migration step, which needs to create tables in the
    /// schema and own the tables it alters.
    static func named(_ error: TabStoreError, on connection: PostgresConnection, migrating: Bool = false) -> TabStoreError {
        guard case let .permissionDenied(server, role, "", _) = error.reason, !connection.isBroken else { return error }
        guard let rows = try? connection.execute(query(migrating: migrating), [connection.schema]), rows.count > 0 else {
            return error
        }
        return TabStoreError(.permissionDenied(server: server, role: rows.value(0, 0) ?? role, privilege: rows.text(0, 2), object: rows.text(0, 1)))
    }

    /// The role, then each missing privilege as (object, privilege) in the order they
    /// are needed: the schema, then each table's, then (migrating) ownership.
    private static func query(migrating: Bool) -> String {
        var needs = [("", "USAGE")] + (migrating ? [("", "CREATE")] : [])
        needs += tables.flatMap { table in table.privileges.map { (table.name, $0) } }
        if migrating { needs += tables.map { ($0.name, "OWNER") } }
        let wanted = needs.enumerated().map { step, need in "(\(step), '\(need.0)', '\(need.1)')" }
        return """
            SELECT current_user,
                   CASE WHEN w.relname = '' THEN 'schema ' || pg_catalog.quote_ident($1)
                        ELSE 'table ' || pg_catalog.quote_ident($1) || '.' || pg_catalog.quote_ident(w.relname) END,
                   w.privilege
            FROM (VALUES \(wanted.joined(separator: ", "))) AS w (step, relname, privilege)
            JOIN pg_catalog.pg_namespace n ON n.nspname = $1
            LEFT JOIN pg_catalog.pg_class c ON c.relnamespace = n.oid AND c.relname = w.relname
            WHERE CASE WHEN w.relname = '' THEN NOT pg_catalog.has_schema_privilege(n.oid, w.privilege)
                       WHEN c.oid IS NULL THEN false
                       WHEN w.privilege = 'OWNER' THEN NOT pg_catalog.pg_has_role(c.relowner, 'USAGE')
                       ELSE NOT pg_catalog.has_table_privilege(c.oid, w.privilege) END
            ORDER BY w.step
            LIMIT 1
            """
    }
}
