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
        #expect(try pragma("PRAGMA user_version", path) == String(Migration.latestVersion))
        #expect(try pragma("PRAGMA journal_mode", path) == "wal")
    }

    @Test func dataPersistsAcrossReopening() throws {
        let path = folder.file()
        do {
            let store = try TabStore(path: path)
            try store.add(["홈", "전체 메뉴", "리뷰"], to: "store-detail", creatingSet: true)
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
        #expect(try pragma("PRAGMA user_version", path) == String(Migration.latestVersion))
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
        #expect(try pragma("PRAGMA user_version", path) == String(Migration.latestVersion))
        // The re-created set moved above every revision its name showed.
        #expect(try store.tabSet(named: "s").revision == 2)
        #expect(thrownError { () throws(TabStoreError) in try store.remove([.index(0)], from: "s", ifRevision: 1) }
            == TabStoreError(.revisionMismatch(set: "s", expected: 1, actual: 2)))
        #expect(try picture(store.tabSet(named: "s")) == ["*Bank"])
        #expect(try picture(store.tabSet(named: "kept")) == ["*K"])
        // The closed tab whose title is back is gone: A reopens.
        #expect(try store.closedTabs(in: "x") == ["A"])
        #expect(try picture(store.reopen(in: "x")) == ["*A", "B", "C"])
        // Names used before stay used: a set made under "old" goes on above revision 2.
        #expect(try store.add(["N"], to: "old", creatingSet: true).revision == 3)
        // The journal rows after the last rename or removal of a name are linked to its set.
        try store.renameSet("s", to: "t")
        #expect(try store.history(of: "t").map(\.revision) == [3, 1])
    }

    /// The steps a file lacks run in one transaction: when one fails, those before it are
    /// undone too, and the file stays at the version it had, with its schema and rows.
    @Test func aStepThatFailsLeavesTheFileAtTheVersionItHad() throws {
        let path = folder.file()
        let database = try Database(path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        for migration in Migration.all where migration.version <= 4 { try database.executeScript(migration.sql) }
        try database.executeScript("""
            PRAGMA user_version = 4;
            INSERT INTO tab_set (id, name, selected_tab_id, revision) VALUES (1, 's', 10, 1);
            INSERT INTO tab (id, set_id, position, title) VALUES (10, 1, 0, 'Home');
            """)
        // Step 5 as shipped, then a step 6 that cannot run.
        let steps = Array(Migration.all.prefix(5)) + [Migration(version: 6, name: "broken", sql: "UPDATE no_such_table SET x = 1")]
        let error = thrownError { () throws(TabStoreError) in try database.migrate(steps) }
        #expect(error == TabStoreError(.sqlite(path: path, code: SQLITE_ERROR, message: "no such table: no_such_table", sql: "UPDATE no_such_table SET x = 1")))
        #expect(try pragma("PRAGMA user_version", path) == "4")
        #expect(try pragma("SELECT count(*) FROM sqlite_master WHERE name = 'name_revision'", path) == "0")
        #expect(try pragma("SELECT group_concat(title) FROM tab", path) == "Home")
        // The same file takes the real steps afterwards.
        try database.migrate()
        #expect(try pragma("PRAGMA user_version", path) == String(Migration.latestVersion))
    }

    /// Migration 6 turns the JSON journal into typed columns: `history` of a database
    /// written by migration 5 gives back exactly the events it gave before, every kind.
    @Test func databaseOfTheFifthMigrationKeepsItsHistoryInTypedColumns() throws {
        let path = folder.file()
        do {
            let database = try Database(path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            for migration in Migration.all where migration.version <= 5 { try database.executeScript(migration.sql) }
            // As release 5 wrote them: one row of every kind, `detail` as JSON text.
            try database.executeScript("""
                PRAGMA user_version = 5;
                INSERT INTO tab_set (id, name, selected_tab_id, revision) VALUES (1, 'main', 11, 9), (2, 'kept', 20, 2);
                INSERT INTO tab (id, set_id, position, title) VALUES (10, 1, 0, 'Home'), (11, 1, 1, '홈 "1"'), (20, 2, 0, 'K');
                INSERT INTO change (set_name, revision, kind, detail, at, set_id) VALUES
                    ('main', 1, 'added', '{"titles":["Home","Mail","홈 \\"1\\"","😀"],"index":0}', 1000, 1),
                    ('main', 2, 'removed', '{"tabs":[{"index":0,"title":"Home","selected":true},{"index":3,"title":"😀","selected":false}]}', 1001, 1),
                    ('main', 3, 'moved', '{"title":"Mail","from":0,"to":1}', 1002, 1),
                    ('main', 4, 'renamed', '{"index":1,"from":"Mail","to":"Home"}', 1003, 1),
                    ('main', 5, 'selected', '{"updates":[{"index":0,"title":"홈 \\"1\\"","selected":false},{"index":1,"title":"Home","selected":true}]}', 1004, 1),
                    ('main', 5, 'reselected', '{"index":1,"title":"Home","selected":true}', 1005, 1),
                    ('main', 6, 'replaced', '{"tabCount":2}', 1006, 1),
                    ('main', 7, 'reopened', '{"index":0,"title":"Mail","selected":false}', 1007, 1),
                    ('main', 8, 'added', '{"titles":[],"index":2}', 1008, 1),
                    ('main', 9, 'removed', '{"tabs":[{"index":0,"title":"Mail","selected":false}]}', 1009, 1),
                    ('main', 10, 'future-kind', '{"x":1}', 1010, 1),
                    ('main', 10, 'moved', 'not json', 1011, 1),
                    ('gone', 1, 'added', '{"titles":["x"],"index":0}', 1012, NULL),
                    ('gone', 2, 'set-removed', '{}', 1013, NULL),
                    ('old', 1, 'added', '{"titles":["K"],"index":0}', 1014, 2),
                    ('old', 2, 'set-renamed', '{"from":"old","to":"kept"}', 1015, 2);
                """)
        }
        let store = try TabStore(path: path)
        #expect(try pragma("PRAGMA user_version", path) == String(Migration.latestVersion))
        func tab(_ index: Int, _ title: String, _ selected: Bool) -> TabUpdate {
            TabUpdate(index: index, tab: Tab(id: .unknown, title: title, isSelected: selected))
        }
        let main: [(Int, TabEvent)] = [
            (9, .removed([tab(0, "Mail", false)])),
            (8, .added(titles: [], index: 2)),
            (7, .reopened(tab(0, "Mail", false))),
            (6, .replaced(tabCount: 2)),
            (5, .reselected(tab(1, "Home", true))),
            (5, .selectionChanged([tab(0, "홈 \"1\"", false), tab(1, "Home", true)])),
            (4, .renamed(index: 1, from: "Mail", to: "Home")),
            (3, .moved(title: "Mail", from: 0, to: 1)),
            (2, .removed([tab(0, "Home", true), tab(3, "😀", false)])),
            (1, .added(titles: ["Home", "Mail", "홈 \"1\"", "😀"], index: 0)),
        ]
        // Newest first, each at its own time (1000 ms + its row); the two rows this binary
        // cannot read (an unknown kind, a detail that is not JSON) are skipped, as before.
        #expect(try store.history(of: "main") == main.enumerated().map { offset, change in
            TabChange(setName: "main", revision: change.0, event: change.1, timestamp: 1009 - offset)
        })
        #expect(try store.history(of: "gone") == [
            TabChange(setName: "gone", revision: 2, event: .setRemoved, timestamp: 1013),
            TabChange(setName: "gone", revision: 1, event: .added(titles: ["x"], index: 0), timestamp: 1012),
        ])
        // History still follows the renamed set through the kept set ids.
        #expect(try store.history(of: "kept") == [
            TabChange(setName: "old", revision: 2, event: .setRenamed(from: "old", to: "kept"), timestamp: 1015),
            TabChange(setName: "old", revision: 1, event: .added(titles: ["K"], index: 0), timestamp: 1014),
        ])
        // New changes go on after the converted ones, in the same typed table.
        try store.select(.index(0), in: "main")
        #expect(try store.history(of: "main", limit: 1).map(\.event.ignoringIDs) == [.selectionChanged([tab(1, "홈 \"1\"", false), tab(0, "Home", true)])])
    }

    @Test func newerSchemaIsRefusedAndTheFileLeftUntouched() throws {
        let path = folder.file()
        _ = try TabStore(path: path)
        try sqlite(path, "PRAGMA user_version = 99")
        let before = try #require(contents(path))
        #expect(thrownError { () throws(TabStoreError) in try TabStore(path: path) }
            == TabStoreError(.schemaTooNew(path: path, found: 99, supported: Migration.latestVersion)))
        #expect(contents(path) == before)
    }

    @Test func anotherProgramsDatabaseIsRefusedAndLeftUntouched() throws {
        let path = folder.file()
        try sqlite(path, "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes VALUES (1, 'x')")
        let before = try #require(contents(path))
        #expect(thrownError { () throws(TabStoreError) in try TabStore(path: path) } == TabStoreError(.notATabStore(path: path)))
        #expect(contents(path) == before)
    }

    @Test func emptyFileIsANewDatabase() throws {
        let path = folder.file()
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let store = try TabStore(path: path)
        #expect(try store.add(["x"], to: "s", creatingSet: true).tabs.count == 1)
        #expect(try store.info().schemaVersion == Migration.latestVersion)
    }

    @Test func randomBytesAreNotADatabase() throws {
        let path = folder.file()
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
        #expect(FileManager.default.createFile(atPath: path, contents: garbage))
        #expect(thrownError { () throws(TabStoreError) in try TabStore(path: path) } == TabStoreError(.notADatabase(path: path)))
        #expect(contents(path) == garbage)
    }

    @Test func aDirectoryCannotBeOpened() throws {
        let error = thrownError { () throws(TabStoreError) in try TabStore(path: folder.path) }
        #expect(error == TabStoreError(.cannotOpen(path: folder.path, reason: "it is a directory")))
    }

    @Test func infoReportsVersionSetsAndQuickCheck() throws {
        let path = folder.file()
        let store = try TabStore(path: path)
        try store.add(["a"], to: "one", creatingSet: true)
        try store.add(["b"], to: "two", creatingSet: true)
        #expect(try store.info() == StoreInfo(location: path, schemaVersion: Migration.latestVersion, setCount: 2))
    }

    /// Migration 7: a database of schema 6 keeps its tabs, selection and closed tabs, and
    /// every tab (live or closed) gets its own valid, distinct version 4 id.
    @Test func databaseOfTheSixthMigrationGivesEveryTabAFreshDistinctID() throws {
        let path = folder.file()
        do {
            let database = try Database(path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            for migration in Migration.all where migration.version <= 6 { try database.executeScript(migration.sql) }
            try database.executeScript("""
                PRAGMA user_version = 6;
                INSERT INTO tab_set (id, name, selected_tab_id, revision) VALUES (1, 'a', 11, 3), (2, 'b', 20, 1);
                INSERT INTO tab (id, set_id, position, title) VALUES (10, 1, 0, 'Home'), (11, 1, 1, '홈'), (12, 1, 2, 'Mail'), (20, 2, 0, 'X');
                INSERT INTO closed_tab (set_id, title, position, was_selected) VALUES (1, 'Gone', 1, 0);
                INSERT INTO change (set_name, revision, kind, at, set_id, tab_index, title, selected) VALUES ('a', 3, 'reopened', 7, 1, 2, 'Mail', 0);
                """)
        }
        let store = try TabStore(path: path)
        #expect(try pragma("PRAGMA user_version", path) == String(Migration.latestVersion))
        let a = try store.tabSet(named: "a"), b = try store.tabSet(named: "b")
        #expect(picture(a) == ["Home", "*홈", "Mail"] && a.revision == 3)
        #expect(picture(b) == ["*X"])
        let ids = (a.tabs + b.tabs).map(\.id)
        #expect(Set(ids).count == 4 && !ids.contains(.unknown))
        // Canonical lowercase version 4 text, as TabID itself makes.
        #expect(ids.allSatisfy { TabID($0.uuidString) == $0 && Array($0.uuidString)[14] == "4" && "89ab".contains(Array($0.uuidString)[19]) })
        #expect(a.tabs.allSatisfy { $0.payload.isEmpty })
        // A journal row from before ids reads back with the unknown id.
        #expect(try store.history(of: "a").map(\.event) == [.reopened(TabUpdate(index: 2, tab: Tab(id: .unknown, title: "Mail", isSelected: false)))])
        // The closed tab has an id too, kept when it comes back, distinct from the others.
        let reopened = try store.reopen(in: "a").set.tabs[1]
        #expect(reopened.title == "Gone" && !ids.contains(reopened.id) && reopened.id != .unknown)
    }

    private func sqlite(_ path: String, _ sql: String) throws {
        let database = try Database(path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        try database.executeScript(sql)
    }

    /// The answer of a `PRAGMA` statement on the file at `path`.
    private func pragma(_ statement: String, _ path: String) throws -> String? {
        let database = try Database(path: path, flags: SQLITE_OPEN_READONLY)
        return try database.firstRow(statement) { $0.text(0) }
    }
}
