import Foundation
@testable import TabStoreCLI
import TabStoreKit
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
