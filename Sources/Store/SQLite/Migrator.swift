import TabStoreSQLite

/// What a database file holds before it is used: read in one snapshot.
struct SchemaState {
    /// `PRAGMA user_version`: the last migration applied, 0 for a new file.
    let version: Int
    /// `PRAGMA application_id`: ``SQLiteSchema/applicationID`` on tabstore's files from
    /// version ``SQLiteSchema/stampedSince`` on, 0 where no program set one.
    let applicationID: Int
    /// Its whole schema: every table, index, view and trigger, SQLite's own included.
    let objects: [SchemaObject]
}

/// Whose a file is, as far as opening it needs to know.
enum Recognition: Equatable {
    /// Nothing in it yet: a 0-byte file, or a SQLite file without schema or another
    /// program's mark. Only a store that may create a database writes one into it.
    case empty
    /// tabstore's, at this schema version.
    case tabStore(version: Int)
}

extension Database {
    /// Reads the schema version, the mark and the whole schema in one snapshot. This is
    /// also the first read of the file, where a file that is not a database is found out.
    func schemaState() throws(TabStoreError) -> SchemaState {
        try inOneSnapshot { () throws(TabStoreError) in
            let version = try firstRow("PRAGMA user_version") { $0.int(0) }
            let applicationID = try firstRow("PRAGMA application_id") { $0.int(0) }
            guard let version, let applicationID else { throw TabStoreError(.corrupt(path: path)) }
            return SchemaState(version: version, applicationID: applicationID, objects: try schemaObjects())
        }
    }

    /// Tells whether the file is tabstore's, before anything is read from its tables or
    /// written to it. Marked with tabstore's application id, it must hold exactly the
    /// schema that tabstore's migrations 1...`user_version` make: what else it holds is
    /// named. Unmarked, it is tabstore's only when it is empty or holds exactly that
    /// schema of a version before the mark (an older tabstore file); anything else
    /// (another program's tables, even named `tab_set` and `tab`, another program's mark,
    /// an unmarked `user_version` past the unmarked ones) is another program's file, of
    /// which nothing can be said to be foreign.
    /// - Throws: `.foreignSchema` for a marked file holding another schema,
    ///   `.notATabStore`, or `.schemaTooNew` for a tabstore file from a newer binary.
    func recognise(_ state: SchemaState) throws(TabStoreError) -> Recognition {
        if state.applicationID == SQLiteSchema.applicationID {
            if state.version > Migration.latestVersion {
                throw TabStoreError(.schemaTooNew(path: path, found: state.version, supported: Migration.latestVersion))
            }
            if let difference = SQLiteSchema.difference(state.objects, version: state.version) {
                throw TabStoreError(.foreignSchema(path: path, version: state.version, difference: difference))
            }
            return .tabStore(version: state.version)
        }
        guard state.applicationID == 0 else { throw TabStoreError(.notATabStore(path: path)) }
        if state.version == 0 && state.objects.isEmpty { return .empty }
        guard (1..<SQLiteSchema.stampedSince).contains(state.version),
              SQLiteSchema.difference(state.objects, version: state.version) == nil
        else { throw TabStoreError(.notATabStore(path: path)) }
        return .tabStore(version: state.version)
    }

    /// Applies every step of `migrations` newer than the file's version, each with its
    /// version bump, in one transaction. A new file is made with one commit (one disk sync
    /// at `FULL`, not one a step), and a step that fails, or a crash, leaves the file at the
    /// version it had. Another process may migrate at the same time: under the write lock
    /// the version is read again and the file recognised again before anything is written.
    func migrate(_ migrations: [Migration] = Migration.all) throws(TabStoreError) {
        try writeTransaction { () throws(TabStoreError) in
            let current = try schemaState()
            _ = try recognise(current)
            for migration in migrations where migration.version > current.version {
                try executeScript(migration.sql)
                try executeScript("PRAGMA user_version = \(migration.version)")
            }
        }
    }
}
