import Testing

/// `rename-set` and `remove-set`.
@Suite struct SetCommandTests {
    @Test func renameSet() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home")
        #expect(sandbox.run("rename-set", "main", "메인") == .ok("renamed set main to 메인\n"))
        #expect(sandbox.run("list") == .ok("메인  1 tab   Home\n"))
        #expect(sandbox.run("rename-set", "메인", "main", "--json") == .ok(#"{"set":"main","previousName":"메인","changed":true}"# + "\n"))
        #expect(sandbox.run("rename-set", "main", "main", "--json") == .ok(#"{"set":"main","previousName":"main","changed":false}"# + "\n"))
    }

    @Test func renameSetToAnExistingNameChangesNothing() {
        let sandbox = Sandbox()
        sandbox.add("a", "1")
        sandbox.add("b", "2")
        #expect(sandbox.run("rename-set", "a", "b") == .failure(1, "tabstore: error: a tab set named \"b\" already exists\n"))
        #expect(sandbox.run("rename-set", "nope", "c") == .failure(1, "tabstore: error: no tab set named \"nope\"\n"))
        #expect(sandbox.run("list") == .ok("a  1 tab   1\nb  1 tab   2\n"))
    }

    @Test func removeSet() {
        let sandbox = Sandbox()
        sandbox.add("a", "1")
        sandbox.add("b", "2")
        #expect(sandbox.run("remove-set", "a") == .ok("removed set a\n"))
        #expect(sandbox.run("remove-set", "b", "--json") == .ok(#"{"set":"b","removed":true}"# + "\n"))
        #expect(sandbox.run("list") == .ok(""))
        #expect(sandbox.run("remove-set", "a") == .failure(1, "tabstore: error: no tab set named \"a\"\n"))
    }

    @Test func removeSetTakesOneName() {
        let sandbox = Sandbox()
        #expect(sandbox.run("remove-set") == .failure(2, """
            tabstore: error: Missing expected argument '<set>' (see 'tabstore help remove-set')

            """))
    }
}
