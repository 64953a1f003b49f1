import Foundation
import TabStoreKit
import Testing
import TabStoreTestSupport

/// Issue 4.4: on a full disk, writes fail with exit code 3 and say the disk is full;
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
}
