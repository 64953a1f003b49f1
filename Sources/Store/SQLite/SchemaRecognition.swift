import TabStoreSQLite

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
