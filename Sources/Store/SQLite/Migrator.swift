/// What a database file holds before it is migrated.
struct SchemaState {
    /// `PRAGMA user_version`: the last migration applied, 0 for a new file.
    let version: Int
    /// How many of tabstore's own tables exist.
    let tabstoreTables: Int
    /// How many tables exist in all.
    let tables: Int

    /// Refuses a file this binary must not touch.
    func check(path: String) throws(TabStoreError) {
        // Whose file it is comes first: tabstore's tables (or an empty file) make it ours,
        // whatever `user_version` another program set.
        let isTabStore = version == 0 ? tables == 0 : tabstoreTables == 2
        if !isTabStore {
            throw .notATabStore(path: path)
        }
        if version > Migration.latestVersion {
            throw .schemaTooNew(path: path, found: version, supported: Migration.latestVersion)
        }
    }
}

extension Database {
    /// Reads the schema version and tables in one statement. This is also the first
    /// read of the file, where a file that is not a database is found out.
    func schemaState() throws(TabStoreError) -> SchemaState {
        let state = try firstRow(
            """
            SELECT (SELECT user_version FROM pragma_user_version),
                   (SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('tab_set', 'tab')),
                   (SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\')
            """
        ) { row in
            SchemaState(version: row.int(0), tabstoreTables: row.int(1), tables: row.int(2))
        }
        // A query without FROM always yields its one row.
        guard let state else { throw .corrupt(path: path) }
        return state
    }

    /// Applies every migration newer than the file, each with its version bump in one
    /// transaction. Another process may migrate at the same time: each step re-reads
    /// the version under the write lock and skips what is already done.
    func migrate() throws(TabStoreError) {
        for migration in Migration.all {
            try writeTransaction { () throws(TabStoreError) in
                let current = try schemaState()
                try current.check(path: path)
                guard current.version < migration.version else { return }
                try executeScript(migration.sql)
                try executeScript("PRAGMA user_version = \(migration.version)")
            }
        }
    }
}
