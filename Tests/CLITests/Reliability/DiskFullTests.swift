import Foundation
import TabStoreKit
import Testing
import TabStoreTestSupport

/// On a full disk, writes fail with exit code 3 and say the disk is full;
/// what was written before stays intact and readable.
@Suite struct DiskFullTests {
    @Test(.enabled(if: TemporaryMount.isAllowed, "needs permission to mount a tmpfs (root in CI)"))
    func writesOnAFullDiskFailWithExitThreeAndKeepEarlierData() throws {
        let sandbox = Sandbox()
        let mount = try #require(TemporaryMount.tmpfs(kilobytes: 384))
        let database = mount.path + "/tabs.sqlite"
        var acknowledged: [String] = []
        var failure: Output?
        for index in 0..<2000 {
            let title = "\(index) " + String(repeating: "탭", count: 80)
            let output = sandbox.runWithoutDatabase(["--db", database, "add", "main", title])
            guard output.code == 0 else {
                failure = output
                break
            }
            acknowledged.append(title)
        }
        let full = try #require(failure, "the disk never filled up")
        #expect(full == .failure(3, "tabstore: error: cannot write \(database): the disk is full\n"))
        #expect(!acknowledged.isEmpty)

        // Reads still work on the full disk, and show every acknowledged tab.
        let store = try TabStore(path: database)
        #expect(try store.tabSet(named: "main").tabs.map(\.title) == acknowledged)
        #expect(sandbox.runWithoutDatabase(["--db", database, "restore", "main"]) == .ok("0\n"))
        #expect(integrityCheck(database) == "ok")
    }

    /// The disk fills while no process has the database open, so no -shm file
    /// exists and none can be sized. Reads still work; writes say the disk is full.
    @Test(.enabled(if: TemporaryMount.isAllowed, "needs permission to mount a tmpfs (root in CI)"))
    func aDiskThatFilledWhileTheDatabaseWasClosedServesReadsAndRefusesWrites() throws {
        let sandbox = Sandbox()
        let mount = try #require(TemporaryMount.tmpfs(kilobytes: 512))
        let database = mount.path + "/tabs.sqlite"
        let run = { (arguments: [String]) in sandbox.runWithoutDatabase(["--db", database] + arguments) }
        #expect(run(["add", "main", "a", "b"]).code == 0)
        #expect(run(["select", "main", "1"]).code == 0)
        let filled = sandbox.runProcess("/bin/dd", ["if=/dev/zero", "of=\(mount.path)/filler", "bs=4096"])
        #expect(filled.stderr.contains("No space left on device"))
        try #require(!sandbox.exists(database + "-shm"))
        let before = FileManager.default.contents(atPath: database)

        #expect(run(["list"]) == .ok("main  2 tabs  b\n"))
        #expect(run(["list", "main"]) == .ok("  0  a\n* 1  b\n"))
        #expect(run(["restore", "main"]) == .ok("1\n"))
        #expect(run(["select", "main", "0"]) == .failure(3, "tabstore: error: cannot write \(database): the disk is full\n"))
        #expect(run(["add", "main", "c"]) == .failure(3, "tabstore: error: cannot write \(database): the disk is full\n"))
        #expect(FileManager.default.contents(atPath: database) == before)

        try FileManager.default.removeItem(atPath: mount.path + "/filler")
        #expect(run(["select", "main", "0"]) == .ok("selected 0: a\n"))
        #expect(integrityCheck(database) == "ok")
    }
}
