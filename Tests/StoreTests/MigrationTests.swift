import TabStoreSQLite
import Foundation
import Testing
@testable import TabStoreKit

@Suite struct MigrationTests {
    let folder = TemporaryFolder()

    @Test func embeddedMigrationsEqualTheSQLFiles() throws {
        let directory = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("migrations")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".sql") }.sorted()
        let fromFiles = try files.map { file -> Migration in
            let stem = String(file.dropLast(4))
            let underscore = try #require(stem.firstIndex(of: "_"))
            return Migration(
                version: try #require(Int(stem[..<underscore])),
                name: String(stem[stem.index(after: underscore)...]),
                sql: try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            )
        }
        #expect(fromFiles.count >= 2)
        #expect(Migration.all == fromFiles)
        #expect(Migration.latestVersion == fromFiles.count)
    }

    @Test func newDatabaseGetsTheLatestVersionAndWAL() throws {
        let path = folder.file()
        _ = try TabStore(path: path)
        #expect(try pragma("user_version", path) == String(Migration.latestVersion))
        #expect(try pragma("journal_mode", path) == "wal")
    }

    @Test func dataPersistsAcrossReopening() throws {
        let path = folder.file()
        do {
            let store = try TabStore(path: path)
            try store.add(["홈", "전체 메뉴", "리뷰"], to: "store-detail")
            try store.select(.index(2), in: "store-detail")
        }
        let reopened = try TabStore(path: path)
        #expect(try picture(reopened.tabSet(named: "store-detail")) == ["홈", "전체 메뉴", "*리뷰"])
        #expect(try reopened.selectedTab(in: "store-detail").index == 2)
    }

    @Test func databaseOfTheFirstMigrationUpgradesInPlaceKeepingData() throws {
        let path = folder.file()
        // Build a file as the first release did: migration 1 only, with data in it.
        do {
            let database = try Database(path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            try database.executeScript(Migration.all[0].sql)
            try database.executeScript("""
                PRAGMA user_version = 1;
                INSERT INTO tab_set (id, name, selected_tab_id, revision) VALUES (1, 'old', 11, 4);
                INSERT INTO tab (id, set_id, position, title) VALUES (10, 1, 0, 'A'), (11, 1, 1, 'B');
                """)
        }
        let store = try TabStore(path: path)
        #expect(try pragma("user_version", path) == String(Migration.latestVersion))
        let set = try store.tabSet(named: "old")
        #expect(picture(set) == ["A", "*B"])
        #expect(set.revision == 4)
        // The upgraded file has what migration 2 brought.
        try store.remove([.index(0)], from: "old")
        #expect(try store.closedTabs(in: "old") == ["A"])
    }

    @Test func databaseOfTheFourthMigrationUpgradesKeepingDataAndMendingRevisions() throws {
        let path = folder.file()
        // As release 4 left it: "s" was removed at revision 2 and re-created at 1 (a reused
        // revision); "old" was renamed to "kept"; "x" has a closed tab titled like a live one.
        do {
            let database = try Database(path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            for migration in Migration.all where migration.version <= 4 { try database.executeScript(migration.sql) }
            try database.executeScript("""
                PRAGMA user_version = 4;
                INSERT INTO tab_set (id, name, selected_tab_id, revision) VALUES (1, 's', 10, 1), (2, 'kept', 20, 3), (3, 'x', 30, 4);
                INSERT INTO tab (id, set_id, position, title) VALUES (10, 1, 0, 'Bank'), (20, 2, 0, 'K'), (30, 3, 0, 'B'), (31, 3, 1, 'C');
                INSERT INTO closed_tab (set_id, title, position, was_selected) VALUES (3, 'A', 0, 1), (3, 'B', 1, 0);
                INSERT INTO change (set_name, revision, kind, detail, at) VALUES
                    ('s', 1, 'added', '{"titles":["Mail"],"index":0}', 1),
                    ('s', 2, 'set-removed', '{}', 2),
                    ('old', 1, 'added', '{"titles":["K"],"index":0}', 3),
                    ('old', 2, 'set-renamed', '{"from":"old","to":"kept"}', 4),
                    ('s', 1, 'added', '{"titles":["Bank"],"index":0}', 5),
                    ('kept', 3, 'renamed', '{"index":0,"from":"J","to":"K"}', 6);
                """)
        }
        let store = try TabStore(path: path)
        #expect(try pragma("user_version", path) == String(Migration.latestVersion))
        // The re-created set moved above every revision its name showed.
        #expect(try store.tabSet(named: "s").revision == 2)
        #expect(thrownError { () throws(TabStoreError) in try store.remove([.index(0)], from: "s", ifRevision: 1) }
            == .revisionMismatch(set: "s", expected: 1, actual: 2))
        #expect(try picture(store.tabSet(named: "s")) == ["*Bank"])
        #expect(try picture(store.tabSet(named: "kept")) == ["*K"])
        // The closed tab whose title is back is gone: A reopens.
        #expect(try store.closedTabs(in: "x") == ["A"])
        #expect(try picture(store.reopen(in: "x")) == ["*A", "B", "C"])
        // Names used before stay used: a set made under "old" goes on above revision 2.
        #expect(try store.add(["N"], to: "old").revision == 3)
        // The journal rows after the last rename or removal of a name are linked to its set.
        try store.renameSet("s", to: "t")
        #expect(try store.history(of: "t").map(\.revision) == [3, 1])
    }

    @Test func newerSchemaIsRefusedAndTheFileLeftUntouched() throws {
        let path = folder.file()
        _ = try TabStore(path: path)
        try sqlite(path, "PRAGMA user_version = 99")
        let before = try #require(contents(path))
        #expect(thrownError { () throws(TabStoreError) in try TabStore(path: path) }
            == .schemaTooNew(path: path, found: 99, supported: Migration.latestVersion))
        #expect(contents(path) == before)
    }

    @Test func anotherProgramsDatabaseIsRefusedAndLeftUntouched() throws {
        let path = folder.file()
        try sqlite(path, "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes VALUES (1, 'x')")
        let before = try #require(contents(path))
        #expect(thrownError { () throws(TabStoreError) in try TabStore(path: path) } == .notATabStore(path: path))
        #expect(contents(path) == before)
    }

    @Test func emptyFileIsANewDatabase() throws {
        let path = folder.file()
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let store = try TabStore(path: path)
        #expect(try store.add(["x"], to: "s").tabs.count == 1)
        #expect(try store.info().schemaVersion == Migration.latestVersion)
    }

    @Test func randomBytesAreNotADatabase() throws {
        let path = folder.file()
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
        #expect(FileManager.default.createFile(atPath: path, contents: garbage))
        #expect(thrownError { () throws(TabStoreError) in try TabStore(path: path) } == .notADatabase(path: path))
        #expect(contents(path) == garbage)
    }

    @Test func directoryOrMissingFolderCannotBeOpened() throws {
        let error = thrownError { () throws(TabStoreError) in try TabStore(path: folder.path) }
        guard case .cannotOpen(folder.path, _)? = error else {
            Issue.record("expected cannotOpen, got \(String(describing: error))")
            return
        }
        let missing = folder.file("no/such/folder/tabs.sqlite")
        guard case .cannotOpen(missing, _)? = thrownError({ () throws(TabStoreError) in try TabStore(path: missing) }) else {
            Issue.record("expected cannotOpen for a missing folder")
            return
        }
    }

    @Test func infoReportsVersionSetsAndQuickCheck() throws {
        let path = folder.file()
        let store = try TabStore(path: path)
        try store.add(["a"], to: "one")
        try store.add(["b"], to: "two")
        #expect(try store.info() == StoreInfo(path: path, schemaVersion: Migration.latestVersion, setCount: 2, quickCheck: "ok"))
    }

    private func sqlite(_ path: String, _ sql: String) throws {
        let database = try Database(path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        try database.executeScript(sql)
    }

    private func pragma(_ name: String, _ path: String) throws -> String? {
        let database = try Database(path: path, flags: SQLITE_OPEN_READONLY)
        return try database.firstRow("PRAGMA \(name)") { $0.text(0) }
    }
}
