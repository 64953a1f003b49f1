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
}
