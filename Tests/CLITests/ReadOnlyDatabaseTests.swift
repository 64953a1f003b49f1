import Foundation
import Testing
import TabStoreTestSupport

/// Exit code 3 for a read-only database. Root ignores file modes, so the database goes
/// on a tmpfs remounted read-only; skipped where mounting is not allowed.
@Suite struct ReadOnlyDatabaseTests {
    @Test(.enabled(if: TemporaryMount.isAllowed, "needs permission to mount a tmpfs (root in CI)"))
    func writesFailWithExitThreeAndReadsStillWork() throws {
        let sandbox = Sandbox()
        let mount = try #require(TemporaryMount.tmpfs(kilobytes: 1024))
        let point = mount.path
        let database = point + "/tabs.sqlite"
        #expect(sandbox.runWithoutDatabase(["--db", database, "add", "main", "a", "b"]) == .ok("added 2 tabs to main\n"))
        try #require(mount.remountReadOnly())

        #expect(sandbox.runWithoutDatabase(["--db", database, "select", "main", "1"]) == .failure(3,
            "tabstore: error: database \(database) is read-only\n"))
        #expect(sandbox.runWithoutDatabase(["--db", database, "--json", "remove", "main", "0"]) == .failure(3,
            #"{"error":{"code":3,"message":"database "# + database + #" is read-only"}}"# + "\n"))
        #expect(sandbox.runWithoutDatabase(["--db", database, "list", "main"]) == .ok("* 0  a\n  1  b\n"))
        #expect(sandbox.runWithoutDatabase(["--db", point + "/new/tabs.sqlite", "add", "main", "a"]) == .failure(3,
            "tabstore: error: cannot open database \(point)/new/tabs.sqlite: cannot create its folder \(point)/new: Read-only file system\n"))
        #expect(sandbox.runWithoutDatabase(["--db", point + "/new.sqlite", "add", "main", "a"]) == .failure(3,
            "tabstore: error: cannot open database \(point)/new.sqlite: its folder \(point) is on a read-only file system\n"))
        // A read of a database that does not exist needs no folder: it reads as empty.
        #expect(sandbox.runWithoutDatabase(["--db", point + "/new/tabs.sqlite", "list"]) == .ok(""))
    }

    /// An edit that changes nothing, or that no file would take, answers on a read-only file
    /// exactly as on a writable copy of it: it needs no write access.
    @Test(.enabled(if: TemporaryMount.isAllowed, "needs permission to mount a tmpfs (root in CI)"))
    func anEditThatChangesNothingAnswersAsOnAWritableFile() throws {
        let sandbox = Sandbox()
        let mount = try #require(TemporaryMount.tmpfs(kilobytes: 1024))
        let readOnly = mount.path + "/tabs.sqlite"
        let writable = sandbox.folder + "/tabs.sqlite"
        for database in [readOnly, writable] {
            #expect(sandbox.runWithoutDatabase(["--db", database, "add", "main", "a", "b"]).code == 0)
            #expect(sandbox.runWithoutDatabase(["--db", database, "set-data", "main", "b", "icon=star"]).code == 0)
        }
        try #require(mount.remountReadOnly())
        let edits: [[String]] = [
            ["select", "main", "0"], ["select", "main", "a"], ["--json", "select", "main", "-2"],
            ["move", "main", "1", "1"], ["rename", "main", "a", "a"], ["rename-set", "main", "main"],
            ["set-data", "main", "b", "icon=star"], ["select", "main", "5"], ["select", "nosuch", "0"],
            ["rename", "main", "a", ""], ["move", "main", "0", "9"],
        ]
        for (number, edit) in edits.enumerated() {
            let answer = sandbox.runWithoutDatabase(["--db", writable] + edit)
            // The first seven change nothing; the rest are refused by any file.
            #expect(answer.code == (number < 7 ? 0 : 1), "\(edit)")
            #expect(sandbox.runWithoutDatabase(["--db", readOnly] + edit) == answer, "\(edit)")
        }
        #expect(sandbox.runWithoutDatabase(["--db", readOnly, "--json", "history", "main"]).stdout.count
            == sandbox.runWithoutDatabase(["--db", writable, "--json", "history", "main"]).stdout.count)
        #expect(sandbox.runWithoutDatabase(["--db", readOnly, "list", "main"]) == .ok("* 0  a\n  1  b\n"))
    }
}
