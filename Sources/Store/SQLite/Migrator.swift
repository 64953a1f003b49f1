import TabStoreSQLite

/// What a database file holds before it is used: read in one statement.
struct SchemaState {
    /// `PRAGMA user_version`: the last migration applied, 0 for a new file.
    let version: Int
    /// `PRAGMA application_id`: ``SQLiteSchema/applicationID`` on tabstore's files from
    /// version ``SQLiteSchema/stampedSince`` on, 0 where no program set one.
    let applicationID: Int
    /// Tables, indexes, views and triggers, SQLite's own (`sqlite_*`) left out; not
    /// counted (nil) on a file with tabstore's mark, which needs no count to be recognised.
    let objects: Int?
}

/// Whose a file is, as far as opening it needs to know.
enum Recognition: Equatable {
    /// Nothing in it yet: a 0-byte file, or a SQLite file without schema or another
    /// program's mark. Only a store that may create a database writes one into it.
    case empty
    /// tabstore's, at this schema version.
    case tabStore(version: Int)
}

/// How a file is told to be tabstore's before anything is written to it.
enum SQLiteSchema {
    /// tabstore's mark in the SQLite header (`PRAGMA application_id`): "tabs" in ASCII.
    static let applicationID = 0x7461_6273
    /// The first schema version whose files carry the mark: migration 0008 sets it.
    /// Older files are recognised by their exact schema instead.
    static let stampedSince = 8

    /// The schema of every version before the mark, as ``Database/schemaSignature()``
    /// reads it from a database that migrations 1...version made. Built in memory the
    /// first time an unmarked file is opened: a marked file never pays for it.
    static let unstampedSignatures = Result { () throws(TabStoreError) -> [Int: [String]] in
        let database = try Database(path: ":memory:", flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        var signatures: [Int: [String]] = [:]
        for migration in Migration.all where migration.version < stampedSince {
            try database.executeScript(migration.sql)
            signatures[migration.version] = try database.schemaSignature()
        }
        return signatures
    }
}

extension Database {
    /// Reads the schema version, the mark and (on a file without the mark) how much schema
    /// there is, in one snapshot. This is also the first read of the file, where a file
    /// that is not a database is found out. The version and the mark are header fields
    /// (`PRAGMA`s read them without loading the schema); counting the schema loads it,
    /// which a marked file at the latest version, the common case, does not need yet.
    func schemaState() throws(TabStoreError) -> SchemaState {
        try inOneSnapshot { () throws(TabStoreError) in
            let version = try firstRow("PRAGMA user_version") { $0.int(0) }
            let applicationID = try firstRow("PRAGMA application_id") { $0.int(0) }
            guard let version, let applicationID else { throw .corrupt(path: path) }
            guard applicationID != SQLiteSchema.applicationID else {
                return SchemaState(version: version, applicationID: applicationID, objects: nil)
            }
            let objects = try firstRow("SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'") { $0.int(0) }
            return SchemaState(version: version, applicationID: applicationID, objects: objects ?? 0)
        }
    }

    /// Every schema object but SQLite's own, one line each, in a fixed order: two files
    /// made by the same migrations give the same lines.
    func schemaSignature() throws(TabStoreError) -> [String] {
        var lines: [String] = []
        try forEachRow(
            """
            SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_master
            WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY type, name
            """
        ) { row in
            lines.append([row.text(0), row.text(1), row.text(2), row.text(3)].joined(separator: "\u{1F}"))
        }
        return lines
    }

    /// Tells whether the file is tabstore's, before anything is written to it: marked
    /// with tabstore's application id; or unmarked and either empty or holding exactly
    /// the schema that tabstore's migrations 1...`user_version` make (an older tabstore
    /// file). Anything else (another program's tables, even named `tab_set` and `tab`,
    /// another program's mark, an unmarked `user_version` past the unmarked ones) is not.
    /// - Throws: `.notATabStore`, or `.schemaTooNew` for a tabstore file from a newer binary.
    func recognise(_ state: SchemaState) throws(TabStoreError) -> Recognition {
        if state.applicationID == SQLiteSchema.applicationID {
            if state.version > Migration.latestVersion {
                throw .schemaTooNew(path: path, found: state.version, supported: Migration.latestVersion)
            }
            return .tabStore(version: state.version)
        }
        guard state.applicationID == 0 else { throw .notATabStore(path: path) }
        if state.version == 0 && state.objects == 0 { return .empty }
        guard (1..<SQLiteSchema.stampedSince).contains(state.version) else { throw .notATabStore(path: path) }
        // Unmarked, of an older version: its schema decides, read in one snapshot with its
        // version, as another process may be migrating the file meanwhile.
        let (current, signature) = try inOneSnapshot { () throws(TabStoreError) in
            (try schemaState(), try schemaSignature())
        }
        guard current.version == state.version, current.applicationID == state.applicationID else {
            return try recognise(current)
        }
        guard let expected = try SQLiteSchema.unstampedSignatures.get()[state.version], signature == expected else {
            throw .notATabStore(path: path)
        }
        return .tabStore(version: state.version)
    }

    /// Applies every migration newer than `version` (what the file was found at), each
    /// with its version bump in one transaction. Another process may migrate at the same
    /// time: each step reads the version again under the write lock, skips what is
    /// already done, and recognises the file again before writing.
    func migrate(from version: Int) throws(TabStoreError) {
        for migration in Migration.all where migration.version > version {
            try writeTransaction { () throws(TabStoreError) in
                let current = try schemaState()
                _ = try recognise(current)
                guard current.version < migration.version else { return }
                try executeScript(migration.sql)
                try executeScript("PRAGMA user_version = \(migration.version)")
            }
        }
    }
}
