import Foundation
import Testing
import TabStoreSQLite
import TabStoreTestSupport
@testable import TabStoreKit

/// Before anything is written to a file, the store recognises it as tabstore's: marked
/// with tabstore's application id (version 8 on), or unmarked with exactly the schema
/// of its version (files of versions 1-7), or empty. Anything else is refused and left
/// byte for byte as it was.
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
                == .notATabStore(path: path))
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
        #expect(thrownError { () throws(TabStoreError) in try TabStore(path: path) } == .notATabStore(path: path))
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
        #expect(thrownError { () throws(TabStoreError) in try TabStore(path: path) } == .notATabStore(path: path))
        #expect(contents(path) == before)
    }

    /// Reading never writes: with `createsMissingDatabase: false` an empty file is no database
    /// yet, as a missing one is, and stays empty.
    @Test func anEmptyFileIsNoDatabaseYetForAStoreThatCreatesNothing() throws {
        let path = folder.file()
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect(thrownError { () throws(TabStoreError) in try TabStore(path: path, options: .init(createsMissingDatabase: false)) }
            == .databaseNotFound(path: path))
        #expect(contents(path) == Data())
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["tabs.sqlite"])
    }

    /// An older file on a read-only file system cannot be upgraded where it is: reads go
    /// to a copy upgraded in memory, writes are refused, the file stays as it was.
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
        #expect(thrownError { () throws(TabStoreError) in try store.select(.index(0), in: "main") } == .readOnly(path: path))
        #expect(thrownError { () throws(TabStoreError) in try store.add(["x"], to: "main") } == .readOnly(path: path))
        #expect(contents(path) == before)
    }

    private func sqlite(_ path: String, _ sql: String) throws {
        let database = try Database(path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        try database.executeScript(sql)
    }

    private func pragma(_ statement: StaticString, _ path: String) throws -> String? {
        let database = try Database(path: path, flags: SQLITE_OPEN_READONLY)
        return try database.firstRow(statement) { $0.text(0) }
    }
}
