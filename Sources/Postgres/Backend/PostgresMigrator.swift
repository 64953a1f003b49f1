import TabStoreKit

/// Brings a server database's schema up to date, as `migrations/postgresql/0001_tab_sets.sql`
/// describes: each step in one transaction that first takes the migration lock, then
/// reads the version and skips what another client did meanwhile. Sixteen clients
/// connecting to a new database at once migrate it exactly once.
struct PostgresMigrator {
    let connection: PostgresConnection

    /// "tabstore" in ASCII, as a 64-bit key: the lock every migrating client takes.
    static let migrationLock = "SELECT pg_catalog.pg_advisory_xact_lock(8386092229154796133)"

    /// Applies every step newer than the database. With `creating` false, a database
    /// without tabstore's tables is `.databaseNotFound` and is left untouched.
    func migrate(creating: Bool) throws(TabStoreError) {
        let server = connection.server
        // Reported when connecting: checked before any step, so no raw error from step 1's check.
        if let encoding = connection.parameter("server_encoding"), encoding != "UTF8" {
            throw TabStoreError(.notUTF8(server: server, encoding: encoding))
        }
        let latest = PostgresSchema.migrations.last?.version ?? 0
        // Most opens find the schema current: one read, no lock.
        let state = try Self.state(connection, server: server)
        try state.check(connection, latest: latest)
        if state.version == latest { return }
        if state.version == 0, !creating { throw TabStoreError(.databaseNotFound(path: server)) }
        // Two round trips a step: the transaction begun, the lock taken and the version read
        // in one pipeline (each statement with its own snapshot, as READ COMMITTED gives),
        // then the step, its version and the COMMIT as one script.
        // A version only grows: the steps up to the one read are done.
        for migration in PostgresSchema.migrations where migration.version > state.version {
            do throws(TabStoreError) {
                let current = try Self.state(connection, server: server, before: [
                    PostgresStatement("BEGIN ISOLATION LEVEL READ COMMITTED"), PostgresStatement(Self.migrationLock),
                ])
                try current.check(connection, latest: latest)
                try sending { () throws(PostgresFailure) in
                    if current.version < migration.version {
                        try connection.executeScript(
                            migration.sql + "\n;\nUPDATE {schema}.tabstore_schema SET version = \(migration.version);\nCOMMIT"
                        )
                    } else {
                        _ = try connection.execute("COMMIT")
                    }
                }
            } catch {
                _ = try? connection.execute("ROLLBACK")
                throw PostgresPrivileges.named(error, on: connection, migrating: true)
            }
        }
    }

    private func sending(_ body: () throws(PostgresFailure) -> Void) throws(TabStoreError) {
        do {
            try body()
        } catch {
            throw connection.storeError(error)
        }
    }

    /// The schema version (0 without tabstore's tables), read as one of `records`' reads:
    /// in its transaction, and run again with it when the server went away.
    static func version(_ records: PostgresRecords) throws(TabStoreError) -> Int {
        State(try records.query(stateQuery, stateParameters(records.connection))).version
    }

    private static func stateParameters(_ connection: PostgresConnection) -> [String?] {
        [connection.schema, "{" + PostgresSchema.triggerNames.joined(separator: ",") + "}"]
    }

    private struct State {
        let version: Int
        /// The schema tabstore uses exists.
        let hasSchema: Bool
        let hasVersionTable: Bool
        /// Both `tab_set` and `tab` exist.
        let hasTabStoreTables: Bool
        /// A table with one of the names tabstore's migrations create exists.
        let hasTableNamedLikeOurs: Bool
        /// The first trigger on tabstore's tables that its migrations did not create (by
        /// name, calling one of tabstore's functions in its schema).
        let foreignTrigger: String?

        /// The state from `stateQuery`'s row.
        init(_ rows: PostgresRows) {
            version = rows.int(0, 4) ?? 0
            hasSchema = rows.value(0, 0) == "t"
            hasVersionTable = rows.value(0, 1) == "t"
            hasTabStoreTables = rows.value(0, 2) == "t"
            hasTableNamedLikeOurs = rows.value(0, 3) == "t"
            foreignTrigger = rows.value(0, 5)
        }

        /// Refuses a database this binary must not touch. Unlike a file, a server database
        /// may hold other programs' tables beside tabstore's; without tabstore's version
        /// table, a table with a name the migrations would create (someone else's `change`)
        /// is refused before any step runs, so no half-made schema is ever left behind.
        func check(_ connection: PostgresConnection, latest: Int) throws(TabStoreError) {
            if !hasSchema { throw TabStoreError(.schemaNotFound(server: connection.server, schema: connection.schema)) }
            let isTabStore = hasVersionTable ? hasTabStoreTables : !hasTableNamedLikeOurs
            if !isTabStore { throw TabStoreError(.notATabStore(path: connection.server)) }
            if version > latest { throw TabStoreError(.schemaTooNew(path: connection.server, found: version, supported: latest)) }
            // It would run on tabstore's writes, with the writing role's rights when its
            // function is not SECURITY DEFINER: another role's SQL run as this one.
            if let foreignTrigger, hasVersionTable {
                throw TabStoreError(.foreignSchema(path: connection.server, version: version,
                                     difference: .init(kind: .extra, objectType: "trigger", name: foreignTrigger)))
            }
        }
    }

    /// Whether the schema and tabstore's tables exist, the version, and the first trigger
    /// on those tables that is not tabstore's, in one query (a command's first request): the version table may not exist, so it is read through
    /// query_to_xml, which plans its query only when the CASE gets there. Reads pg_class
    /// itself, not `to_regclass`: a name lookup goes through this connection's catalog
    /// cache, which can still miss a table another client created while this one waited
    /// for the lock; a scan of pg_class reads as of this statement.
    static let stateQuery = """
        SELECT n.oid IS NOT NULL,
               EXISTS (SELECT 1 FROM pg_catalog.pg_class c WHERE c.relnamespace = n.oid AND c.relname = 'tabstore_schema'),
               (SELECT count(*) FROM pg_catalog.pg_class c WHERE c.relnamespace = n.oid AND c.relname IN ('tab_set', 'tab')) = 2,
               EXISTS (SELECT 1 FROM pg_catalog.pg_class c WHERE c.relnamespace = n.oid
                       AND c.relname IN ('tab_set', 'tab', 'closed_tab', 'change', 'name_revision')),
               CASE WHEN EXISTS (SELECT 1 FROM pg_catalog.pg_class c WHERE c.relnamespace = n.oid AND c.relname = 'tabstore_schema')
                    THEN (pg_catalog.xpath('/row/version/text()', pg_catalog.query_to_xml(
                              pg_catalog.format('SELECT version FROM %I.tabstore_schema', n.nspname), false, true, '')))[1]::text::integer
               END,
               (SELECT t.tgname FROM pg_catalog.pg_trigger t JOIN pg_catalog.pg_class c ON c.oid = t.tgrelid
                    JOIN pg_catalog.pg_proc p ON p.oid = t.tgfoid
                WHERE c.relnamespace = n.oid AND NOT t.tgisinternal
                      AND c.relname IN ('tab_set', 'tab', 'closed_tab', 'change', 'name_revision', 'tabstore_schema')
                      AND NOT (t.tgname = ANY ($2::text[]) AND p.pronamespace = n.oid AND p.proname LIKE 'tabstore\\_%')
                ORDER BY t.tgname LIMIT 1)
        FROM (SELECT $1::text AS name) AS wanted LEFT JOIN pg_catalog.pg_namespace n ON n.nspname = wanted.name
        """

    /// The state, read after `statements` in the same pipeline.
    private static func state(
        _ connection: PostgresConnection, server: String, before statements: [PostgresStatement] = []
    ) throws(TabStoreError) -> State {
        do {
            let results = try connection.pipeline(statements + [PostgresStatement(stateQuery, stateParameters(connection))])
            return State(results[statements.count])
        } catch {
            throw PostgresPrivileges.named(connection.storeError(error), on: connection)
        }
    }
}
