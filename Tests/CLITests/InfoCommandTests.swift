import Testing
@testable import TabStoreKit

@Suite struct InfoCommandTests {
    @Test func textIsAlignedKeyValueLines() {
        let sandbox = Sandbox()
        sandbox.add("a", "1")
        sandbox.add("b")
        #expect(sandbox.run("info") == .ok("""
            path:            \(sandbox.database)
            schema version:  \(Migration.latestVersion)
            sets:            2
            quick_check:     ok

            """))
    }

    @Test func json() {
        let sandbox = Sandbox()
        #expect(sandbox.run("info", "--json") == .ok(
            #"{"path":""# + sandbox.database + #"","schemaVersion":\#(Migration.latestVersion),"setCount":0,"quickCheck":"ok"}"# + "\n"))
    }

    @Test func infoTakesNoArguments() {
        let sandbox = Sandbox()
        #expect(sandbox.run("info", "extra") == .failure(2, """
            tabstore: error: Unexpected argument 'extra'
            Usage: tabstore info
            See 'tabstore help info' for more.

            """))
    }
}
