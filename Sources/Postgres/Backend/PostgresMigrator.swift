import TabStoreKit

/// Brings a server database's schema up to date, as `migrations/postgresql/0001_tab_sets.sql`
/// describes: each step in one transaction that first takes the migration lock, then
/// reads the version and skips what another client did meanwhile. Sixteen clients
/// connecting to a new database at once migrate it exactly once.
struct PostgresMigrator {
    let connection: PostgresConnection

    /// "tabstore" in ASCII, as a 64-bit key: the lock every migrating client takes.
    static let migrationLock = "SELECT pg_advisory_xact_lock(8386092229154796133)"

    /// Applies every step newer than the database. With `creating` false, a database
    /// without tabstore's tables is `.databaseNotFound` and is left untouched.
    func migrate(creating: Bool) throws(TabStoreError) {
        let server = connection.server
        let latest = PostgresSchema.migrations.last?.version ?? 0
        // Most opens find the schema current: one read, no lock.
        let state = try Self.state(connection, server: server)
        try state.check(server: server, latest: latest)
        if state.version == latest { return }
        if state.version == 0, !creating { throw .databaseNotFound(path: server) }
        for migration in PostgresSchema.migrations {
            do throws(TabStoreError) {
                try sending { () throws(PostgresFailure) in
                    _ = try connection.pipeline([PostgresStatement("BEGIN ISOLATION LEVEL READ COMMITTED"), PostgresStatement(Self.migrationLock)])
                }
                let current = try Self.state(connection, server: server)
                try current.check(server: server, latest: latest)
                try sending { () throws(PostgresFailure) in
                    if current.version < migration.version {
                        try connection.executeScript(migration.sql)
                        _ = try connection.execute("UPDATE tabstore_schema SET version = $1", [String(migration.version)])
                    }
                    _ = try connection.execute("COMMIT")
                }
            } catch {
                _ = try? connection.execute("ROLLBACK")
                throw error
            }
        }
    }

    private func sending(_ body: () throws(PostgresFailure) -> Void) throws(TabStoreError) {
        do {
            try body()
        } catch {
            throw error.storeError(server: connection.server, outcomeUnknown: false)
        }
    }

    /// The schema version (0 without tabstore's tables).
    static func version(_ connection: PostgresConnection, server: String) throws(TabStoreError) -> Int {
        try state(connection, server: server).version
    }

    private struct State {
        let version: Int
        let hasVersionTable: Bool
        /// Both `tab_set` and `tab` exist.
        let hasTabStoreTables: Bool
        /// A table with one of the names tabstore's migrations create exists.
        let hasTableNamedLikeOurs: Bool

        /// Refuses a database this binary must not touch. Unlike a file, a server database
        /// may hold other programs' tables beside tabstore's; without tabstore's version
        /// table, a table with a name the migrations would create (someone else's `change`)
        /// is refused before any step runs, so no half-made schema is ever left behind.
        func check(server: String, latest: Int) throws(TabStoreError) {
            let isTabStore = hasVersionTable ? hasTabStoreTables : !hasTableNamedLikeOurs
            if !isTabStore { throw .notATabStore(path: server) }
            if version > latest { throw .schemaTooNew(path: server, found: version, supported: latest) }
        }
    }

    /// Reads pg_class itself, not `to_regclass`: a name lookup goes through this
    /// connection's catalog cache, which can still miss a table another client created
    /// while this one waited for the lock; a scan of pg_class reads as of this statement.
    private static func state(_ connection: PostgresConnection, server: String) throws(TabStoreError) -> State {
        do {
            let rows = try connection.execute(
                """
                SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_class WHERE relname = 'tabstore_schema'
                                   AND relnamespace = current_schema()::regnamespace),
                       (SELECT count(*) FROM pg_catalog.pg_class WHERE relname IN ('tab_set', 'tab')
                        AND relnamespace = current_schema()::regnamespace) = 2,
                       EXISTS (SELECT 1 FROM pg_catalog.pg_class
                               WHERE relname IN ('tab_set', 'tab', 'closed_tab', 'change', 'name_revision')
                               AND relnamespace = current_schema()::regnamespace)
                """
            )
            let hasVersionTable = rows.value(0, 0) == "t"
            let version = hasVersionTable ? try connection.execute("SELECT version FROM tabstore_schema").int(0, 0) ?? 0 : 0
            return State(
                version: version, hasVersionTable: hasVersionTable, hasTabStoreTables: rows.value(0, 1) == "t",
                hasTableNamedLikeOurs: rows.value(0, 2) == "t"
            )
        } catch {
            throw error.storeError(server: server, outcomeUnknown: false)
        }
    }
}
