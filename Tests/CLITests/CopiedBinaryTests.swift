import Foundation
import Testing
@testable import TabStoreKit

/// The migrations are compiled into the binary: a `tabstore` copied away from its build
/// folder (no resource bundle beside it) still creates and upgrades databases.
@Suite struct CopiedBinaryTests {
    @Test func aCopiedBinaryWorksAlone() throws {
        let sandbox = Sandbox()
        let copy = sandbox.folder + "/bin/tabstore"
        try FileManager.default.createDirectory(atPath: sandbox.folder + "/bin", withIntermediateDirectories: true)
        try sandbox.installExecutable(TabstoreBinary.path, at: copy)
        #expect(sandbox.runProcess(copy, ["--db", sandbox.database, "add", "main", "Home"]) == .ok("added 1 tab to main\n"))
        #expect(sandbox.runProcess(copy, ["--db", sandbox.database, "--json", "info"]) == .ok(
            #"{"path":""# + sandbox.database + #"","schemaVersion":\#(Migration.latestVersion),"setCount":1,"check":"ok"}"# + "\n"))
    }
}
