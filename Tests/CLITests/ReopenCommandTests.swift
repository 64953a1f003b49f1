import Testing

@Suite struct ReopenCommandTests {
    @Test func bringsBackTheLastRemovedTabWhereItWas() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "Reviews", "Map")
        _ = sandbox.run("select", "main", "Reviews")
        _ = sandbox.run("remove", "main", "Reviews")
        #expect(sandbox.run("reopen", "main") == .ok("reopened 1: Reviews\n"))
        #expect(sandbox.list("main") == "  0  Home\n* 1  Reviews\n  2  Map\n")
    }

    @Test func nothingToReopen() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home")
        #expect(sandbox.run("reopen", "main") == .failure(1, "tabstore: error: set \"main\" has no removed tab to reopen\n"))
    }

    @Test func jsonPrintsTheSet() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "Map")
        _ = sandbox.run("remove", "main", "-1")
        #expect(sandbox.run("reopen", "main", "--json") == .ok(
            #"{"name":"main","revision":3,"selectedIndex":0,"tabs":[{"index":0,"title":"Home","selected":true},{"index":1,"title":"Map","selected":false}]}"# + "\n"))
    }
}
