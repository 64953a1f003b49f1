import Foundation
import TabStoreKit
import Testing
import TabStoreTestSupport

/// No read command creates or changes a file that is not already a tabstore database,
/// and no command at all writes into a file it does not recognise as tabstore's.
@Suite struct ReadsNeverWriteTests {
    /// Every command that only reads, with what it prints for a database without sets.
    static let reads: [(arguments: [String], empty: Output)] = [
        (["list"], .ok("")),
        (["list", "main"], .failure(1, "tabstore: error: no tab set named \"main\"\n")),
        (["show", "main"], .failure(1, "tabstore: error: no tab set named \"main\"\n")),
        (["restore", "main"], .failure(1, "tabstore: error: no tab set named \"main\"\n")),
        (["history", "main"], .failure(1, "tabstore: error: no tab set named \"main\"\n")),
        (["export"], .ok("{\n  \"format\": \"tabstore\",\n  \"version\": 2,\n  \"sets\": []\n}\n")),
        (["__complete", "bash", "--", "tabstore", "select", ""], .ok("words\n")),
    ]

    /// Files that are not a tabstore database, each made at a path.
    struct NotOurs: Sendable, CustomTestStringConvertible {
        let name: String
        let make: @Sendable (_ sandbox: Sandbox, _ path: String) -> Void
        var testDescription: String { name }
    }

    static let files: [NotOurs] = [
        NotOurs(name: "a 0-byte file") { _, path in
            _ = FileManager.default.createFile(atPath: path, contents: Data())
        },
        NotOurs(name: "random bytes") { _, path in
            var random = SplitMix64(seed: 17)
            _ = FileManager.default.createFile(atPath: path, contents: Data((0..<4096).map { _ in UInt8(truncatingIfNeeded: random.next()) }))
        },
        NotOurs(name: "another program's database in WAL mode") { sandbox, path in
            _ = sandbox.runProcess("/usr/bin/sqlite3", [path, "PRAGMA journal_mode = WAL; CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('x')"])
        },
    ] + (1...7).map { version in
        NotOurs(name: "another program's tab_set and tab at user_version \(version)") { sandbox, path in
            _ = sandbox.runProcess("/usr/bin/sqlite3", [path, """
                CREATE TABLE tab_set (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, selected_tab_id INTEGER, revision INTEGER NOT NULL DEFAULT 0);
                CREATE TABLE tab (id INTEGER PRIMARY KEY, set_id INTEGER NOT NULL, position INTEGER NOT NULL, title TEXT NOT NULL);
                INSERT INTO tab_set (name) VALUES ('theirs');
                PRAGMA user_version = \(version);
                """])
        }
    }

    /// The family: every read of every file that is not ours leaves the folder exactly as it was.
    @Test(arguments: files)
    func noReadChangesAFileThatIsNotOurs(file: NotOurs) {
        let sandbox = Sandbox()
        let folder = sandbox.makeFolder("data", mode: 0o755)
        let path = folder + "/tabs.sqlite"
        file.make(sandbox, path)
        let before = sandbox.picture(of: folder)
        for read in Self.reads.map(\.arguments) + [["info"], ["watch", "main"], ["watch"]] {
            // Bounded: a watch that started would run until a signal.
            let output = sandbox.runProcess("/usr/bin/timeout", ["--kill-after=5", "10", TabstoreBinary.path, "--db", path] + read)
            #expect(![124, 137].contains(output.code), "\(read) did not end")
            #expect(sandbox.picture(of: folder) == before, "\(read) changed the folder")
        }
    }

    /// Reads of a tabstore database leave its folder as they found it: the read-only
    /// connection closes before the writer, which then removes the -wal and -shm files
    /// (they were left behind by every read).
    @Test func readsOfADatabaseLeaveItsFolderAsItWas() {
        let sandbox = Sandbox()
        let folder = sandbox.makeFolder("data", mode: 0o755)
        let path = folder + "/tabs.sqlite"
        #expect(sandbox.runWithoutDatabase(["--db", path, "add", "main", "Home", "Reviews"]).code == 0)
        let before = sandbox.picture(of: folder)
        for read in Self.reads.map(\.arguments) + [["info"], ["list", "--json"]] {
            _ = sandbox.runWithoutDatabase(["--db", path] + read)
            #expect(sandbox.picture(of: folder) == before, "\(read) changed the folder")
        }
    }

    /// `list` of a 0-byte file wrote the whole schema into it. An empty file
    /// reads as an empty database, as a missing one does, and stays 0 bytes.
    @Test func anEmptyFileReadsAsEmptyAndStaysEmpty() {
        let sandbox = Sandbox()
        _ = FileManager.default.createFile(atPath: sandbox.database, contents: Data())
        let before = sandbox.picture(of: sandbox.folder)
        for read in Self.reads {
            #expect(sandbox.run(read.arguments) == read.empty, "\(read.arguments)")
        }
        #expect(sandbox.run("info") == .failure(1, "tabstore: error: no database at \(sandbox.database) yet\n"))
        #expect(sandbox.picture(of: sandbox.folder) == before)
        // A command that creates the database creates it in the empty file.
        #expect(sandbox.run("add", "main", "x") == .ok("added 1 tab to main\n"))
        #expect(sandbox.run("list", "main") == .ok("* 0  x\n"))
    }

    @Test(.enabled(if: TemporaryMount.isAllowed, "needs permission to mount a tmpfs (root in CI)"))
    func anEmptyFileOnAReadOnlyFileSystemReadsAsEmpty() throws {
        let sandbox = Sandbox()
        let mount = try #require(TemporaryMount.tmpfs(kilobytes: 64))
        let path = mount.path + "/tabs.sqlite"
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        try #require(mount.remountReadOnly())
        for read in Self.reads {
            #expect(sandbox.runWithoutDatabase(["--db", path] + read.arguments) == read.empty, "\(read.arguments)")
        }
        #expect(sandbox.runWithoutDatabase(["--db", path, "add", "main", "x"]) == .failure(3,
            "tabstore: error: database \(path) is read-only\n"))
    }

    /// Another program's `tab_set` and `tab` at user_version 1-7 were migrated
    /// (columns added, tables created; at 5-7 the bytes changed). Refused by every
    /// command, reads and writes, byte for byte unchanged.
    @Test(arguments: 1...7)
    func anotherProgramsTablesNamedLikeOursAreNeverWritten(version: Int) throws {
        let sandbox = Sandbox()
        Self.files[3 + version - 1].make(sandbox, sandbox.database)
        let before = try #require(FileManager.default.contents(atPath: sandbox.database))
        let message = "tabstore: error: \(sandbox.database) is a SQLite database of another program, not a tabstore database\n"
        for command in [["list"], ["info"], ["add", "main", "x"], ["select", "theirs", "0"], ["remove-set", "theirs"], ["import", sandbox.write(#"{"format":"tabstore","version":2,"sets":[]}"#, to: "d.json")]] {
            #expect(sandbox.run(command) == .failure(3, message), "\(command)")
        }
        #expect(FileManager.default.contents(atPath: sandbox.database) == before)
    }

    /// An older tabstore file on a read-only file system cannot be upgraded where it is:
    /// reads show it (through a copy upgraded in memory), writes say it is read-only.
    @Test(.enabled(if: TemporaryMount.isAllowed, "needs permission to mount a tmpfs (root in CI)"))
    func anOlderDatabaseOnAReadOnlyFileSystemIsReadAsItIs() throws {
        let sandbox = Sandbox()
        let mount = try #require(TemporaryMount.tmpfs(kilobytes: 1024))
        let path = mount.path + "/tabs.sqlite"
        let migrations = try (1...6).map { version in
            try String(contentsOfFile: MigrationFiles.path(version: version), encoding: .utf8)
        }
        let older = sandbox.runProcess("/usr/bin/sqlite3", [path], stdin: migrations.joined(separator: "\n") + """
            PRAGMA user_version = 6;
            INSERT INTO tab_set (id, name, selected_tab_id, revision) VALUES (1, 'main', 11, 2);
            INSERT INTO tab (id, set_id, position, title) VALUES (10, 1, 0, 'Home'), (11, 1, 1, 'Reviews');
            """)
        #expect(older.code == 0, "\(older)")
        try #require(mount.remountReadOnly())
        let before = FileManager.default.contents(atPath: path)
        let run = { (arguments: [String]) in sandbox.runWithoutDatabase(["--db", path] + arguments) }
        #expect(run(["list", "main"]) == .ok("  0  Home\n* 1  Reviews\n"))
        #expect(run(["info"]) == .ok("path:            \(path)\nschema version:  6\nsets:            1\ncheck:           ok\n"))
        #expect(run(["select", "main", "0"]) == .failure(3, "tabstore: error: database \(path) is read-only\n"))
        #expect(FileManager.default.contents(atPath: path) == before)
    }
}

/// The SQL files in `migrations/`, found from this source file.
enum MigrationFiles {
    static func path(version: Int) throws -> String {
        let folder = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("migrations").path
        let prefix = String(format: "%04d_", version)
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasPrefix(prefix) && $0.hasSuffix(".sql") })
        return folder + "/" + name
    }
}
