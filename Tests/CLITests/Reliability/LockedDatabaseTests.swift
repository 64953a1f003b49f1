import TabStoreSQLite
import Testing
@testable import TabStoreKit

/// A database another connection keeps write-locked past the busy timeout (5 s):
/// writes give up with exit 3 and say so; reads do not wait.
@Suite struct LockedDatabaseTests {
    @Test func writeLockedPastTheBusyTimeoutExitsThree() throws {
        let sandbox = Sandbox()
        sandbox.add("main", "A", "B")
        let holder = try Database(path: sandbox.database, flags: SQLITE_OPEN_READWRITE)
        try holder.executeScript("BEGIN IMMEDIATE")
        #expect(sandbox.run("select", "main", "1") == .failure(3,
            "tabstore: error: database \(sandbox.database) is still locked by another process after the busy timeout\n"))
        #expect(sandbox.run("restore", "main") == .ok("0\n"))
        try holder.executeScript("ROLLBACK")
        #expect(sandbox.run("select", "main", "1") == .ok("selected 1: B\n"))
    }
}
