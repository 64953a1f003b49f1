import TabStoreSQLite

// A file's schema: what it holds before it is used, whether it is tabstore's (each
// version's schema is embedded at build time), and the migrations that bring it up to date.

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

/// One row of `sqlite_master`, where SQLite keeps a file's schema: what the row is
/// (`table`, `index`, `view` or `trigger`), its name, the table it belongs to, and the
/// SQL that made it (`nil` for the index of a UNIQUE or PRIMARY KEY constraint). The
/// page it starts on is left out: two files with the same schema differ there.
struct SchemaObject: Hashable, Sendable {
    let type: String
    let name: String
    let table: String
    let sql: String?
}

/// How a file is told to be tabstore's before anything is read from its tables or
/// written to it.
enum SQLiteSchema {
    /// tabstore's mark in the SQLite header (`PRAGMA application_id`): "tabs" in ASCII.
    static let applicationID = 0x7461_6273
    /// The first schema version whose files carry the mark: migration 0008 sets it.
    /// Older files are recognised by their exact schema alone.
    static let stampedSince = 8

    /// What in `found` (a file's `sqlite_master`) is not the schema that tabstore's
    /// migrations 1...`version` make, or `nil` when it is exactly that schema: every
    /// table (its columns, their types, constraints and defaults are in its SQL), index,
    /// view and trigger, SQLite's own (`sqlite_autoindex_...`) among them. The statistics
    /// tables that SQLite's ANALYZE makes are allowed: they only guide the query planner.
    ///
    /// The schemas were made at build time by the build machine's SQLite; one that
    /// differs is compared again with the schemas this SQLite makes, before a file it
    /// may have made itself is refused.
    static func difference(_ found: [SchemaObject], version: Int) -> TabStoreError.SchemaDifference? {
        guard let first = difference(found, from: embeddedSchemas, statistics: embeddedStatisticsTables, version: version) else {
            return nil
        }
        guard case let .success(here) = schemasMadeHere else { return first }
        return difference(found, from: here.schemas, statistics: here.statistics, version: version)
    }

    private static func difference(
        _ found: [SchemaObject], from schemas: [Int: [SchemaObject]], statistics: [SchemaObject], version: Int
    ) -> TabStoreError.SchemaDifference? {
        var expected = schemas[version] ?? []
        var extra: [SchemaObject] = []
        var changed: [SchemaObject] = []
        for object in found where !statistics.contains(object) {
            if let place = expected.firstIndex(where: { $0.type == object.type && $0.name == object.name }) {
                if expected[place] != object { changed.append(object) }
                expected.remove(at: place)
            } else {
                extra.append(object)
            }
        }
        // What can run code first (a trigger, a view), then what hides or alters rows.
        let mostTelling = { (objects: [SchemaObject]) in
            objects.min { (rank($0.type), $0.name) < (rank($1.type), $1.name) }
        }
        if let object = mostTelling(extra) { return TabStoreError.SchemaDifference(kind: .extra, objectType: object.type, name: object.name) }
        if let object = mostTelling(changed) { return TabStoreError.SchemaDifference(kind: .changed, objectType: object.type, name: object.name) }
        if let object = mostTelling(expected) { return TabStoreError.SchemaDifference(kind: .missing, objectType: object.type, name: object.name) }
        return nil
    }

    private static func rank(_ type: String) -> Int {
        ["trigger", "view", "table", "index"].firstIndex(of: type) ?? 4
    }

    /// The schema of every version and ANALYZE's tables as this process's SQLite makes
    /// them: migrations applied to an in-memory database. Made only when a file differs
    /// from the embedded schemas (a refusal, or a SQLite that writes a schema otherwise).
    static let schemasMadeHere = Result { () throws(TabStoreError) -> (schemas: [Int: [SchemaObject]], statistics: [SchemaObject]) in
        let database = try Database(path: ":memory:", flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        var schemas: [Int: [SchemaObject]] = [:]
        for migration in Migration.all {
            try database.executeScript(migration.sql)
            schemas[migration.version] = try database.schemaObjects()
        }
        try database.executeScript("ANALYZE")
        let statistics = try database.schemaObjects().filter { $0.name.hasPrefix("sqlite_stat") }
        return (schemas, statistics)
    }
}

extension Database {
    /// Every row of `sqlite_master`, by type, then name.
    func schemaObjects() throws(TabStoreError) -> [SchemaObject] {
        var objects: [SchemaObject] = []
        try forEachRow("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name") { row in
            objects.append(SchemaObject(type: row.text(0), name: row.text(1), table: row.text(2), sql: row.isNull(3) ? nil : row.text(3)))
        }
        return objects
    }
}

extension TabStoreError {
    /// What in a file's schema is not tabstore's (the code `foreignSchema`).
    package struct SchemaDifference: Sendable, Hashable, Codable {
        package enum Kind: Sendable, Hashable, Codable {
            /// The file holds the object; tabstore's schema does not.
            case extra
            /// tabstore's schema has the object; the file does not.
            case missing
            /// Both have it, defined otherwise (a column more or less, another type,
            /// constraint or default, another table for an index).
            case changed
        }

        package let kind: Kind
        /// What SQLite calls the object: `table`, `index`, `view` or `trigger`.
        package let objectType: String
        package let name: String

        package init(kind: Kind, objectType: String, name: String) {
            self.kind = kind
            self.objectType = objectType
            self.name = name
        }
    }
}
