import Foundation
import Testing
import TabStoreSQLite
import TabStoreTestSupport
@testable import TabStoreKit

/// Before anything is read from a file's tables or written to it, the store recognises it
/// as tabstore's: exactly the schema of its version, marked with tabstore's application
/// id (version 8 on, where anything else in the schema is named) or unmarked (files of
/// versions 1-7), or empty. Anything else is refused and left byte for byte as it was.
@Suite struct FileRecognitionTests {
    let folder = TemporaryFolder()

    /// What one unmarked file of a version gets changed by, to look like tabstore's and not be.
    struct Lookalike: Sendable, CustomTestStringConvertible {
        let name: String
        /// SQL run after the genuine schema of version `version` was made.
        let change: @Sendable (_ version: Int) -> String
        var testDescription: String { name }
    }

    static let lookalikes: [Lookalike] = [
        Lookalike(name: "an extra table") { _ in "CREATE TABLE notes (body TEXT)" },
        Lookalike(name: "an extra index") { _ in "CREATE INDEX mine ON tab(title)" },
        Lookalike(name: "a missing index") { _ in "DROP INDEX tab_by_position" },
        Lookalike(name: "an extra column") { _ in "ALTER TABLE tab ADD COLUMN extra TEXT" },
        Lookalike(name: "a view") { _ in "CREATE VIEW titles AS SELECT title FROM tab" },
        Lookalike(name: "a trigger") { _ in "CREATE TRIGGER t AFTER INSERT ON tab BEGIN SELECT 1; END" },
        Lookalike(name: "the version of the schema after it") { version in "PRAGMA user_version = \(version + 1)" },
        Lookalike(name: "the version of the schema before it") { version in "PRAGMA user_version = \(version - 1)" },
        Lookalike(name: "another program's application id") { _ in "PRAGMA application_id = 1234" },
    ]

    static let unmarkedVersions = Array(1..<SQLiteSchema.stampedSince)

    /// A file as tabstore `version` left it: migrations 1...version, unmarked, with a tab.
    private func genuineFile(version: Int, at path: String) throws {
        let database = try Database(path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        for migration in Migration.all where migration.version <= version {
            try database.executeScript(migration.sql)
        }
        try database.executeScript("""
            PRAGMA user_version = \(version);
            INSERT INTO tab_set (id, name, selected_tab_id) VALUES (1, 'main', 10);
            INSERT INTO tab (id, set_id, position, title) VALUES (10, 1, 0, 'Home');
            """)
    }

    @Test(arguments: unmarkedVersions)
    func anOlderTabstoreFileIsRecognisedUpgradedAndMarked(version: Int) throws {
        let path = folder.file()
        try genuineFile(version: version, at: path)
        let store = try TabStore(path: path)
        #expect(try picture(store.tabSet(named: "main")) == ["*Home"])
        #expect(try pragma("PRAGMA user_version", path) == String(Migration.latestVersion))
        #expect(try pragma("PRAGMA application_id", path) == String(SQLiteSchema.applicationID))
    }

    /// The family of near misses: every version's genuine schema with one thing changed.
    @Test(arguments: unmarkedVersions, lookalikes)
    func aFileThatOnlyLooksLikeAnOlderTabstoreFileIsRefusedUnchanged(version: Int, lookalike: Lookalike) throws {
        let path = folder.file()
        try genuineFile(version: version, at: path)
        try sqlite(path, lookalike.change(version))
        let before = try #require(contents(path))
        for createsMissingDatabase in [true, false] {
            #expect(thrownError { () throws(TabStoreError) in try TabStore(path: path, options: .init(createsMissingDatabase: createsMissingDatabase)) }
                == TabStoreError(.notATabStore(path: path)))
        }
        #expect(contents(path) == before)
    }

    /// Another program's tables named `tab_set` and `tab`, at each version tabstore
    /// once had, were migrated (columns added, tables created); at 5-7 the bytes changed.
    @Test(arguments: unmarkedVersions + [SQLiteSchema.stampedSince, 99])
    func anotherProgramsTablesNamedLikeOursAreRefusedUnchanged(version: Int) throws {
        let path = folder.file()
        try sqlite(path, """
            CREATE TABLE tab_set (id INTEGER PRIMARY KEY, name TEXT, selected_tab_id INTEGER, revision INTEGER);
            CREATE TABLE tab (id INTEGER PRIMARY KEY, set_id INTEGER, position INTEGER, title TEXT);
            INSERT INTO tab_set VALUES (1, 'theirs', NULL, 0);
            PRAGMA user_version = \(version);
            """)
        let before = try #require(contents(path))
        #expect(thrownError { () throws(TabStoreError) in try TabStore(path: path) } == TabStoreError(.notATabStore(path: path)))
        #expect(contents(path) == before)
    }

    @Test func aNewFileCarriesTheMark() throws {
        let path = folder.file()
        _ = try TabStore(path: path)
        #expect(try pragma("PRAGMA application_id", path) == "1952539251")
        #expect(try pragma("PRAGMA user_version", path) == String(Migration.latestVersion))
        // 'tabs' in ASCII at offset 68 of the header, where file(1) and others look.
        let header = try #require(contents(path)).prefix(72)
        #expect(Array(header.suffix(4)) == Array("tabs".utf8))
    }

    @Test func anEmptySQLiteFileWithAnotherProgramsMarkIsRefusedUnchanged() throws {
        let path = folder.file()
        try sqlite(path, "PRAGMA application_id = 1234")
        let before = try #require(contents(path))
        #expect(thrownError { () throws(TabStoreError) in try TabStore(path: path) } == TabStoreError(.notATabStore(path: path)))
        #expect(contents(path) == before)
    }

    /// Reading never writes: with `createsMissingDatabase: false` an empty file is no database
    /// yet, as a missing one is, and stays empty.
    @Test func anEmptyFileIsNoDatabaseYetForAStoreThatCreatesNothing() throws {
        let path = folder.file()
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect(thrownError { () throws(TabStoreError) in try TabStore(path: path, options: .init(createsMissingDatabase: false)) }
            == TabStoreError(.databaseNotFound(path: path)))
        #expect(contents(path) == Data())
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["tabs.sqlite"])
    }

    /// An older file on a read-only file system cannot be upgraded where it is: reads go
    /// to a copy upgraded in memory, changes are refused, the file stays as it was.
    @Test(.enabled(if: TemporaryMount.isAllowed, "needs permission to mount a tmpfs (root in CI)"))
    func anOlderFileOnAReadOnlyFileSystemIsReadThroughAnUpgradedCopy() throws {
        let mount = try #require(TemporaryMount.tmpfs(kilobytes: 1024))
        let path = mount.path + "/tabs.sqlite"
        try genuineFile(version: 5, at: path)
        try sqlite(path, "PRAGMA journal_mode = WAL")
        #expect(mount.remountReadOnly())
        let before = try #require(contents(path))
        let store = try TabStore(path: path)
        #expect(try picture(store.tabSet(named: "main")) == ["*Home"])
        #expect(try store.tabSet(named: "main").tabs.allSatisfy { $0.id != .unknown })
        #expect(try store.info() == StoreInfo(location: path, schemaVersion: 5, setCount: 1))
        // A reselection writes nothing, so it needs no write access; a change does.
        #expect(try store.select(.index(0), in: "main").updates.isEmpty)
        #expect(thrownError { () throws(TabStoreError) in try store.add(["x"], to: "main") } == TabStoreError(.readOnly(path: path)))
        #expect(contents(path) == before)
    }

    // MARK: Foreign schema objects in a file of every version

    /// One change that makes a genuine file's schema foreign, and what the refusal names.
    struct ForeignChange: CustomStringConvertible {
        let sql: String
        let kind: TabStoreError.SchemaDifference.Kind
        let objectType: String
        let name: String
        var description: String { sql }
    }

    /// Tables and droppable indexes of `version`'s schema (with a column of each table), read
    /// from a file the migrations made.
    private func schemaOf(version: Int) throws -> (tables: [(name: String, column: String)], indexes: [String]) {
        let path = folder.file("schema-\(version).sqlite")
        try genuineFile(version: version, at: path)
        let database = try Database(path: path, flags: SQLITE_OPEN_READWRITE, defensive: false)
        var tables: [String] = [], indexes: [String] = []
        try database.forEachRow("SELECT type, name FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name") { row in
            if row.text(0) == "table" { tables.append(row.text(1)) } else if row.text(0) == "index" { indexes.append(row.text(1)) }
        }
        var described: [(String, String)] = []
        for table in tables {
            var columns: [String] = []
            let statement = try Statement(database: database.handle, sql: "SELECT name FROM pragma_table_info('\(table)') WHERE pk = 0")
            while try statement.step() { columns.append(statement.text(0)) }
            described.append((table, try #require(columns.first)))
        }
        return (described, indexes)
    }

    /// Draws foreign changes for a file of `version`: a trigger on each table, a view in
    /// place of each table, a table, a column (a generated one too), an index (plain, on
    /// an expression, partial),
    /// a column type, a CHECK or a DEFAULT changed in the schema's text, an index dropped,
    /// a trigger under SQLite's own `sqlite_` prefix.
    private func foreignChanges(version: Int, count: Int, random: inout SplitMix64) throws -> [ForeignChange] {
        let schema = try schemaOf(version: version)
        func pick<T>(_ values: [T]) -> T { values[random.below(values.count)] }
        func freshName() -> String {
            "x_" + String((0..<6).map { _ in pick(Array("abcdefghijklmnopqrstuvwxyz")) })
        }
        func editedSQL(of table: String, replacing old: String, with new: String) -> String {
            """
            PRAGMA writable_schema = ON;
            UPDATE sqlite_master SET sql = replace(sql, '\(old)', '\(new)') WHERE type = 'table' AND name = '\(table)';
            PRAGMA writable_schema = OFF;
            """
        }
        var changes: [ForeignChange] = []
        // Every table gets a trigger and a view in its place; then random draws.
        for table in schema.tables {
            let name = freshName()
            changes.append(ForeignChange(
                sql: "CREATE TRIGGER \(name) \(pick(["BEFORE", "AFTER"])) \(pick(["INSERT", "UPDATE", "DELETE"])) ON \"\(table.name)\" BEGIN DELETE FROM tab WHERE set_id <> 0; END",
                kind: .extra, objectType: "trigger", name: name))
            changes.append(ForeignChange(
                sql: "ALTER TABLE \"\(table.name)\" RENAME TO \"\(table.name)_shadowed\"; CREATE VIEW \"\(table.name)\" AS SELECT * FROM \"\(table.name)_shadowed\"",
                kind: .extra, objectType: "view", name: table.name))
        }
        while changes.count < count {
            let table = pick(schema.tables)
            let name = freshName()
            switch random.below(10) {
            case 8:
                changes.append(ForeignChange(sql: "ALTER TABLE \"\(table.name)\" ADD COLUMN \(name) AS (upper(\"\(table.column)\")) VIRTUAL",
                                             kind: .changed, objectType: "table", name: table.name))
            case 0:
                changes.append(ForeignChange(sql: "CREATE TABLE \(name) (a, b)", kind: .extra, objectType: "table", name: name))
            case 1:
                changes.append(ForeignChange(sql: "ALTER TABLE \"\(table.name)\" ADD COLUMN \(name) TEXT", kind: .changed, objectType: "table", name: table.name))
            case 2:
                let indexed = pick(["\"\(table.column)\"", "abs(\"\(table.column)\")", "\"\(table.column)\") WHERE (\"\(table.column)\" IS NOT NULL"])
                changes.append(ForeignChange(sql: "CREATE INDEX \(name) ON \"\(table.name)\" (\(indexed))", kind: .extra, objectType: "index", name: name))
            case 3:
                changes.append(ForeignChange(sql: editedSQL(of: table.name, replacing: "INTEGER NOT NULL", with: "TEXT NOT NULL"),
                                             kind: .changed, objectType: "table", name: table.name))
            case 4:
                changes.append(ForeignChange(sql: editedSQL(of: table.name, replacing: "NOT NULL", with: "NOT NULL CHECK (length(hex(randomblob(8))) > 0)"),
                                             kind: .changed, objectType: "table", name: table.name))
            case 5 where table.name == "tab_set":
                changes.append(ForeignChange(sql: editedSQL(of: table.name, replacing: "DEFAULT 0", with: "DEFAULT (random())"),
                                             kind: .changed, objectType: "table", name: table.name))
            case 6:
                let index = pick(schema.indexes)
                changes.append(ForeignChange(sql: "DROP INDEX \(index)", kind: .missing, objectType: "index", name: index))
            case 7:
                let hidden = "sqlite_" + name
                changes.append(ForeignChange(sql: """
                    PRAGMA writable_schema = ON;
                    INSERT INTO sqlite_master (type, name, tbl_name, rootpage, sql) VALUES
                        ('trigger', '\(hidden)', '\(table.name)', 0, 'CREATE TRIGGER \(hidden) AFTER INSERT ON "\(table.name)" BEGIN DELETE FROM tab; END');
                    PRAGMA writable_schema = OFF;
                    """, kind: .extra, objectType: "trigger", name: hidden))
            default:
                changes.append(ForeignChange(
                    sql: "CREATE TRIGGER \(name) AFTER INSERT ON \"\(table.name)\" BEGIN SELECT 1; END; CREATE VIEW \(freshName()) AS SELECT 1",
                    kind: .extra, objectType: "trigger", name: name))
            }
        }
        return changes
    }

    /// The message a user reads, spelled out here rather than taken from the error.
    private func refusal(_ path: String, version: Int, _ change: ForeignChange) -> String {
        let schema = "tabstore's schema version \(version)"
        let article = change.objectType == "index" ? "an" : "a"
        switch change.kind {
        case .extra: return "\(path) holds \(article) \(change.objectType) \"\(change.name)\" that \(schema) does not have; tabstore does not open it"
        case .missing: return "\(path) lacks the \(change.objectType) \"\(change.name)\" that \(schema) has; tabstore does not open it"
        case .changed: return "\(path) holds \(article) \(change.objectType) \"\(change.name)\" that is not as \(schema) defines it; tabstore does not open it"
        }
    }

    static let everyVersion = Array(1...Migration.latestVersion)

    /// A file of every version with one foreign change is refused, naming the change,
    /// before anything is read or written: the file keeps its bytes and no -wal or -shm
    /// file is left beside it. Marked files (as tabstore writes them from version 8, and
    /// older ones marked too) name the change; unmarked ones of versions 1-7 are not
    /// recognised as tabstore's at all.
    @Test(arguments: everyVersion)
    func aFileOfAnyVersionWithAForeignSchemaObjectIsRefusedUnchangedNamingIt(version: Int) throws {
        var random = SplitMix64(seed: 2800 + UInt64(version))
        let changes = try foreignChanges(version: version, count: 30, random: &random)
        let marks = version < SQLiteSchema.stampedSince ? [false, true] : [true]
        for (number, change) in changes.enumerated() {
            for marked in marks {
                let path = folder.file("foreign-\(number)-\(marked).sqlite")
                try genuineFile(version: version, at: path)
                let journal = random.below(2) == 0 ? "WAL" : "DELETE"
                try sqlite(path, "PRAGMA journal_mode = \(journal);" + (marked && version < SQLiteSchema.stampedSince ? "PRAGMA application_id = \(SQLiteSchema.applicationID);" : ""))
                try sqlite(path, change.sql)
                let before = try #require(contents(path))
                let listing = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
                for createsMissingDatabase in [true, false] {
                    let error = thrownError { () throws(TabStoreError) in
                        try TabStore(path: path, options: .init(createsMissingDatabase: createsMissingDatabase))
                    }
                    if marked {
                        let difference = TabStoreError.SchemaDifference(kind: change.kind, objectType: change.objectType, name: change.name)
                        #expect(error == TabStoreError(.foreignSchema(path: path, version: version, difference: difference)), "\(change) (\(journal))")
                        #expect(error?.description == refusal(path, version: version, change), "\(change)")
                    } else {
                        #expect(error == TabStoreError(.notATabStore(path: path)), "\(change) (\(journal))")
                    }
                }
                #expect(contents(path) == before, "\(change) (\(journal))")
                #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == listing, "\(change) (\(journal))")
                try FileManager.default.removeItem(atPath: path)
            }
        }
    }

    /// A trigger that is only in the file's -wal file (its writer closed without moving it
    /// into the file) is seen and refused, and the refusal moves nothing: the file, its
    /// -wal and its folder are as they were.
    @Test func aForeignTriggerWaitingInTheWALIsRefusedAndLeftThere() throws {
        let path = folder.file()
        do {
            let store = try TabStore(path: path)
            try store.add(["a", "b"], to: "main", creatingSet: true)
        }
        var handle: OpaquePointer?
        try #require(sqlite3_open(path, &handle) == SQLITE_OK)
        try #require(tabstore_sqlite3_db_config_flag(handle, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1) == SQLITE_OK)
        try #require(sqlite3_exec(handle, "CREATE TRIGGER late AFTER UPDATE ON tab_set BEGIN DELETE FROM tab; END", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(handle)
        let before = (try #require(contents(path)), try #require(contents(path + "-wal")))
        let listing = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(listing == ["tabs.sqlite", "tabs.sqlite-shm", "tabs.sqlite-wal"])
        let difference = TabStoreError.SchemaDifference(kind: .extra, objectType: "trigger", name: "late")
        #expect(thrownError { () throws(TabStoreError) in try TabStore(path: path) }
            == TabStoreError(.foreignSchema(path: path, version: Migration.latestVersion, difference: difference)))
        #expect(contents(path) == before.0)
        #expect(contents(path + "-wal") == before.1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == listing)
    }

    /// A name from the file is shown on one line, whatever it holds (a quote inside it as
    /// it is: the rule of every quoted name, VisibleText).
    @Test func aForeignObjectsNameIsShownEscapedOnOneLine() {
        let name = "x\ny\u{1B}[2J\""
        #expect(TabStoreError(.foreignSchema(path: "/t.sqlite", version: 9, difference: .init(kind: .extra, objectType: "trigger", name: name))).description
            == #"/t.sqlite holds a trigger "x\ny\u{1b}[2J"" that tabstore's schema version 9 does not have; tabstore does not open it"#)
        #expect(TabStoreError(.foreignSchema(path: "/t.sqlite", version: 3, difference: .init(kind: .missing, objectType: "index", name: "i"))).description
            == #"/t.sqlite lacks the index "i" that tabstore's schema version 3 has; tabstore does not open it"#)
    }

    /// The statistics tables SQLite's ANALYZE (or `PRAGMA optimize`) makes only guide the
    /// query planner: a genuine file of any version that has them opens and is upgraded.
    @Test(arguments: everyVersion)
    func aGenuineFileOfAnyVersionOpensWithANALYZEsTables(version: Int) throws {
        let path = folder.file()
        try genuineFile(version: version, at: path)
        try sqlite(path, "ANALYZE")
        let store = try TabStore(path: path)
        #expect(try picture(store.tabSet(named: "main")) == ["*Home"])
        #expect(try pragma("PRAGMA user_version", path) == String(Migration.latestVersion))
    }

    /// The schemas embedded at build time are the ones the migrations make with the SQLite
    /// the library runs on.
    @Test func theEmbeddedSchemasAreTheOnesTheMigrationsMakeHere() throws {
        let here = try SQLiteSchema.schemasMadeHere.get()
        #expect(here.schemas == embeddedSchemas)
        #expect(here.statistics == embeddedStatisticsTables)
        #expect(embeddedSchemas.keys.sorted() == Self.everyVersion)
    }

    /// Every connection runs with SQLite's settings for files from anyone: no function
    /// with side effects from the schema, no trigger or view of the file.
    @Test func aStoreConnectionDistrustsTheSchema() throws {
        let path = folder.file()
        let store = try TabStore(path: path)
        try store.add(["a", "b"], to: "main", creatingSet: true)
        #expect(try store.withDatabase { database throws(TabStoreError) in try database.firstRow("PRAGMA trusted_schema") { $0.int(0) } } == 0)
        // A trigger added behind the store's back (after it recognised the file) never fires.
        try sqlite(path, "CREATE TRIGGER wipe AFTER UPDATE ON tab_set BEGIN DELETE FROM tab; END")
        try store.select(.index(1), in: "main")
        #expect(try picture(store.tabSet(named: "main")) == ["a", "*b"])
    }

    private func sqlite(_ path: String, _ sql: String) throws {
        let database = try Database(path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, defensive: false)
        try database.executeScript(sql)
    }

    private func pragma(_ statement: String, _ path: String) throws -> String? {
        let database = try Database(path: path, flags: SQLITE_OPEN_READONLY)
        return try database.firstRow(statement) { $0.text(0) }
    }
}
