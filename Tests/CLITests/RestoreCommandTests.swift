import Testing

@Suite struct RestoreCommandTests {
    @Test func printsTheIndexAlone() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "All menu", "Reviews")
        #expect(sandbox.run("restore", "main") == .ok("0\n"))
        _ = sandbox.run("select", "main", "Reviews")
        #expect(sandbox.run("restore", "main") == .ok("2\n"))
    }

    @Test func jsonGivesSetIndexAndTitle() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "리뷰")
        _ = sandbox.run("select", "main", "-1")
        #expect(sandbox.run("--json", "restore", "main") == .ok(#"{"set":"main","selectedIndex":1,"title":"리뷰"}"# + "\n"))
    }

    @Test func anEmptySetHasNoSelectionToRestore() {
        let sandbox = Sandbox()
        sandbox.add("empty")
        #expect(sandbox.run("restore", "empty") == .failure(1, "tabstore: error: set \"empty\" has no tabs\n"))
        #expect(sandbox.run("restore", "empty", "--json") == .failure(1,
            #"{"error":{"code":1,"message":"set \"empty\" has no tabs"}}"# + "\n"))
    }

    @Test func anUnknownSet() {
        let sandbox = Sandbox()
        #expect(sandbox.run("restore", "nope") == .failure(1, "tabstore: error: no tab set named \"nope\"\n"))
    }
}
