import Foundation
@testable import TabStoreCLI
import TabStoreKit
import TabStoreSQLite
import Testing
import TabStoreTestSupport

/// Files that are not a sound tabstore database. Each gets exit code 3 and
/// one line naming the file, for a read and for a write, and stays byte-for-byte as it was.
@Suite struct BadDatabaseFileTests {
    struct BadFile: Sendable, CustomTestStringConvertible {
        let name: String
        /// Makes the bad file at the path and returns the message expected for it.
        let make: @Sendable (_ sandbox: Sandbox, _ path: String) -> String
        var testDescription: String { name }
    }

    static let badFiles: [BadFile] = [
        BadFile(name: "random bytes") { _, path in
            var random = SplitMix64(seed: 42)
            _ = FileManager.default.createFile(atPath: path, contents: Data((0..<8192).map { _ in UInt8(truncatingIfNeeded: random.next()) }))
            return "\(path) is not a database"
        },
        BadFile(name: "truncated database") { sandbox, path in
            sandbox.fill(path, tabs: 2000)
            let whole = FileManager.default.contents(atPath: path) ?? Data()
            _ = FileManager.default.createFile(atPath: path, contents: whole.prefix(whole.count / 2))
            return "database \(path) is corrupt"
        },
        BadFile(name: "newer schema") { sandbox, path in
            sandbox.fill(path, tabs: 3)
            _ = sandbox.runProcess("/usr/bin/sqlite3", [path, "PRAGMA user_version = 99"])
            return "database \(path) has schema version 99, newer than this tabstore supports (\(Migration.latestVersion)); upgrade tabstore"
        },
        // Whose file it is is told apart by tabstore's tables, not by user_version.
        BadFile(name: "another program's database with a high user_version") { sandbox, path in
            _ = sandbox.runProcess("/usr/bin/sqlite3", [path, "PRAGMA user_version = 99; CREATE TABLE x (a)"])
            return "\(path) is a SQLite database of another program, not a tabstore database"
        },
        BadFile(name: "another program's database") { sandbox, path in
            _ = sandbox.runProcess("/usr/bin/sqlite3", [path, "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('x')"])
            return "\(path) is a SQLite database of another program, not a tabstore database"
        },
    ]

    @Test(arguments: badFiles)
    func badFileFailsWithExitThreeAndStaysUnchanged(bad: BadFile) throws {
        let sandbox = Sandbox()
        let message = bad.make(sandbox, sandbox.database)
        let before = try #require(FileManager.default.contents(atPath: sandbox.database))
        for command in [["list"], ["restore", "main"], ["add", "main", "x"], ["select", "main", "0"], ["info"]] {
            #expect(sandbox.run(command) == .failure(3, "tabstore: error: \(message)\n"), "\(command)")
        }
        let json = JSONValue.object([("error", .object([("code", .int(3)), ("message", .string(message))]))])
        #expect(sandbox.run(["--json", "select", "main", "0"]) == .failure(3, json.rendered() + "\n"))
        #expect(FileManager.default.contents(atPath: sandbox.database) == before)
    }

    /// A trigger added to a tabstore file (one that deletes every other set's tabs) would
    /// run on every write: every command refuses the file, naming the trigger, before it
    /// reads or writes anything, `backup` makes no copy, and the file and its folder stay
    /// as they were. Once the trigger is dropped, every tab is still there.
    @Test(arguments: [
        ("tab_set", "CREATE TRIGGER wipe AFTER UPDATE ON tab_set BEGIN DELETE FROM tab WHERE set_id <> NEW.id; END"),
        ("change", #"CREATE TRIGGER wipe AFTER INSERT ON "change" BEGIN DELETE FROM tab WHERE set_id <> NEW.set_id; END"#),
    ])
    func aForeignTriggerIsRefusedByEveryCommandAndNeverRuns(table: String, trigger: String) throws {
        let sandbox = Sandbox()
        sandbox.add("main", "A", "B")
        sandbox.add("other", "X", "Y")
        #expect(sandbox.runProcess("/usr/bin/sqlite3", [sandbox.database, trigger]) == .ok(""))
        let document = sandbox.write(TabStoreDocument(sets: [.init(name: "new", selectedIndex: 0, tabs: ["n"])]).json(), to: "new.json")
        let before = try #require(FileManager.default.contents(atPath: sandbox.database))
        let listing = try FileManager.default.contentsOfDirectory(atPath: sandbox.folder).sorted()
        let message = "\(sandbox.database) holds a trigger \"wipe\" that tabstore's schema version \(Migration.latestVersion) does not have; tabstore does not open it"
        let commands = [
            ["add", "main", "C"], ["select", "main", "1"], ["move", "main", "A", "1"], ["rename", "main", "A", "Z"],
            ["remove", "main", "A"], ["reopen", "main"], ["set-data", "main", "A", "k=v"], ["rename-set", "main", "renamed"],
            ["remove-set", "main"], ["import", document], ["import", "--replace", document],
            ["backup", sandbox.folder + "/copy.sqlite"],
            ["list"], ["list", "other"], ["show", "other"], ["restore", "other"], ["export"], ["history", "other"], ["info"],
        ]
        for command in commands {
            #expect(sandbox.run(command) == .failure(3, "tabstore: error: \(message)\n"), "\(command)")
        }
        let json = JSONValue.object([("error", .object([("code", .int(3)), ("message", .string(message))]))])
        #expect(sandbox.run(["--json", "select", "main", "1"]) == .failure(3, json.rendered() + "\n"))
        #expect(FileManager.default.contents(atPath: sandbox.database) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder).sorted() == listing)

        #expect(sandbox.runProcess("/usr/bin/sqlite3", [sandbox.database, "DROP TRIGGER wipe"]) == .ok(""))
        #expect(sandbox.list("main") == "* 0  A\n  1  B\n")
        #expect(sandbox.list("other") == "* 0  X\n  1  Y\n")
    }

    /// A view in place of the `tab` table would show other titles than the stored ones,
    /// while SQLite's check of the file finds nothing wrong: refused, naming the view.
    @Test func aViewInPlaceOfATableIsRefused() throws {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "Reviews")
        let shadow = """
            ALTER TABLE tab RENAME TO stored_tab;
            CREATE VIEW tab AS SELECT id, set_id, position, 'altered ' || title AS title, uuid, payload FROM stored_tab;
            """
        #expect(sandbox.runProcess("/usr/bin/sqlite3", [sandbox.database, shadow]) == .ok(""))
        let before = try #require(FileManager.default.contents(atPath: sandbox.database))
        let line = "tabstore: error: \(sandbox.database) holds a view \"tab\" that tabstore's schema version \(Migration.latestVersion) does not have; tabstore does not open it\n"
        for command in [["list", "main"], ["info"], ["add", "main", "x"]] {
            #expect(sandbox.run(command) == .failure(3, line), "\(command)")
        }
        #expect(FileManager.default.contents(atPath: sandbox.database) == before)
    }

    /// Another database's -wal file beside a file puts that database's pages over the
    /// file's: here its `tab` table page, which still has the title a rename changed, over
    /// an index that has the new one. quick_check passes such a file; `info` runs SQLite's
    /// full integrity_check, which finds the row missing from the index, and says so.
    @Test func infoFindsTheIndexThatAStrayWALFromAnotherDatabaseLeavesWrong() throws {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "Reviews", "Menu")
        let other = sandbox.folder + "/other.sqlite"
        try FileManager.default.copyItem(atPath: sandbox.database, toPath: other)
        #expect(sandbox.run("rename", "main", "Reviews", "Ratings") == .ok("renamed Reviews to Ratings\n"))
        // A change to the other database's tab table that touches no index, left in its -wal.
        try Self.leaveInWAL(other, "UPDATE tab SET payload = '1:k1:v' WHERE title = 'Home'")
        try FileManager.default.copyItem(atPath: other + "-wal", toPath: sandbox.database + "-wal")

        // The premise, on a copy: quick_check finds nothing, integrity_check the missing row.
        let copy = sandbox.folder + "/copy.sqlite"
        try FileManager.default.copyItem(atPath: sandbox.database, toPath: copy)
        try FileManager.default.copyItem(atPath: sandbox.database + "-wal", toPath: copy + "-wal")
        #expect(try Self.check("quick_check", copy) == ["ok"])
        #expect(try Self.check("integrity_check", copy) == ["row 2 missing from index sqlite_autoindex_tab_1"])

        let before = (FileManager.default.contents(atPath: sandbox.database), FileManager.default.contents(atPath: sandbox.database + "-wal"))
        #expect(sandbox.run("info") == .failure(3,
            "tabstore: error: database \(sandbox.database) is corrupt: row 2 missing from index sqlite_autoindex_tab_1\n"))
        // The check moved nothing from the stray -wal into the file: without it, the file is sound.
        #expect(FileManager.default.contents(atPath: sandbox.database) == before.0)
        #expect(FileManager.default.contents(atPath: sandbox.database + "-wal") == before.1)
        for leftover in ["-wal", "-shm"] { try FileManager.default.removeItem(atPath: sandbox.database + leftover) }
        #expect(sandbox.run("info").stdout.hasSuffix("check:           ok\n"))
        #expect(sandbox.list("main") == "* 0  Home\n  1  Ratings\n  2  Menu\n")
    }

    /// Runs `sql` on the file at `path` and closes it leaving the change in its -wal file.
    private static func leaveInWAL(_ path: String, _ sql: String) throws {
        var database: OpaquePointer?
        defer { sqlite3_close(database) }
        try #require(sqlite3_open(path, &database) == SQLITE_OK)
        try #require(tabstore_sqlite3_db_config_flag(database, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1) == SQLITE_OK)
        try #require(sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK)
    }

    /// What `PRAGMA <check>` says of the file at `path`, line by line.
    private static func check(_ check: String, _ path: String) throws -> [String] {
        var database: OpaquePointer?
        defer { sqlite3_close(database) }
        try #require(sqlite3_open(path, &database) == SQLITE_OK)
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        try #require(sqlite3_prepare_v2(database, "PRAGMA \(check)", -1, &statement, nil) == SQLITE_OK)
        var lines: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            lines.append(String(cString: sqlite3_column_text(statement, 0)))
        }
        return lines
    }

    @Test func directoryWhereTheFileShouldBe() {
        let sandbox = Sandbox()
        for command in [["add", "main", "x"], ["list"]] {
            #expect(sandbox.runWithoutDatabase(["--db", sandbox.folder] + command) == .failure(3,
                "tabstore: error: cannot open database \(sandbox.folder): it is a directory\n"), "\(command)")
        }
    }

    /// A path ending in / names a folder: `add` made that folder, then failed to open a
    /// file there, and left the folder behind.
    @Test func aPathEndingInASlashIsRefusedAndNothingIsMade() {
        let sandbox = Sandbox()
        let path = sandbox.folder + "/new/"
        for command in [["add", "main", "x"], ["list"]] {
            let output = sandbox.runWithoutDatabase(["--db", path] + command)
            let expected = command[0] == "add"
                ? Output.failure(3, "tabstore: error: cannot open database \(path): the path ends in /, so it names a folder, not a file\n")
                : .ok("")
            #expect(output == expected, "\(command)")
        }
        #expect(!sandbox.exists(sandbox.folder + "/new"))
    }

    @Test func parentThatCannotBeCreated() {
        let sandbox = Sandbox()
        let file = sandbox.write("x", to: "plain-file")
        #expect(sandbox.runWithoutDatabase(["--db", file + "/tabs.sqlite", "add", "main", "x"]) == .failure(3,
            "tabstore: error: cannot open database \(file)/tabs.sqlite: a part of its folder path is a file, not a folder\n"))
        #expect(sandbox.runWithoutDatabase(["--db", file + "/sub/tabs.sqlite", "list"]) == .failure(3,
            "tabstore: error: cannot open database \(file)/sub/tabs.sqlite: a part of its folder path is a file, not a folder\n"))
        #expect(sandbox.runWithoutDatabase(["--db", file + "/sub/tabs.sqlite", "add", "main", "x"]) == .failure(3,
            "tabstore: error: cannot open database \(file)/sub/tabs.sqlite: a part of its folder path is a file, not a folder\n"))
        #expect(FileManager.default.contents(atPath: file) == Data("x".utf8))
    }

    @Test func emptyFileIsANewDatabase() {
        let sandbox = Sandbox()
        _ = FileManager.default.createFile(atPath: sandbox.database, contents: Data())
        #expect(sandbox.run("add", "main", "x") == .ok("added 1 tab to main\n"))
        #expect(sandbox.run("list", "main") == .ok("* 0  x\n"))
    }

    @Test(.enabled(if: TemporaryMount.isAllowed, "needs permission to mount a tmpfs (root in CI)"))
    func readOnlyFileSystemServesReadsAndRefusesWrites() throws {
        let sandbox = Sandbox()
        let mount = try #require(TemporaryMount.tmpfs(kilobytes: 1024))
        let database = mount.path + "/tabs.sqlite"
        let run = { (arguments: [String]) in sandbox.runWithoutDatabase(["--db", database] + arguments) }
        #expect(run(["add", "main", "Home", "Reviews"]).code == 0)
        #expect(run(["select", "main", "1"]).code == 0)
        try #require(mount.remountReadOnly())
        let before = FileManager.default.contents(atPath: database)

        #expect(run(["list", "main"]) == .ok("  0  Home\n* 1  Reviews\n"))
        #expect(run(["restore", "main"]) == .ok("1\n"))
        #expect(run(["export"]).stdout.contains(#""selectedIndex": 1"#))
        #expect(run(["info"]).stdout.contains("check:           ok"))
        for write in [["select", "main", "0"], ["add", "main", "x"], ["remove-set", "main"]] {
            #expect(run(write) == .failure(3, "tabstore: error: database \(database) is read-only\n"), "\(write)")
        }
        #expect(FileManager.default.contents(atPath: database) == before)
    }
}

extension Sandbox {
    /// A database at `path` with one set of `tabs` tabs.
    func fill(_ path: String, tabs: Int) {
        let document = TabStoreDocument(sets: [.init(name: "main", selectedIndex: 0, tabs: (0..<tabs).map { "tab \($0)" })])
        let output = runWithoutDatabase(["--db", path, "import", write(document.json(), to: "fill.json")])
        #expect(output.code == 0, "fill failed: \(output)")
    }
}
