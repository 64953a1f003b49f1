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

    /// Tabs whose stored ids cannot be read (edited by hand) read as the nil UUID; removed
    /// and reopened, each comes back with an id of its own (two nil ids once collided).
    @Test func tabsWithUnreadableIdsComeBackWithIdsOfTheirOwn() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "Map", "News")
        _ = sandbox.runProcess("/usr/bin/sqlite3", [sandbox.database, "UPDATE tab SET uuid = 'garbage-' || title WHERE title <> 'Home'"])
        #expect(sandbox.run("info").code == 3)
        #expect(sandbox.run("remove", "main", "Map", "News") == .ok("removed 2 tabs from main\n"))
        #expect(sandbox.run("reopen", "main") == .ok("reopened 1: Map\n"))
        #expect(sandbox.run("reopen", "main") == .ok("reopened 2: News\n"))
        #expect(sandbox.run("info").code == 0)
        let ids = sandbox.runProcess("/usr/bin/sqlite3", [sandbox.database, "SELECT count(DISTINCT uuid) FROM tab"])
        #expect(ids.stdout == "3\n")
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
        #expect(sandbox.run("reopen", "main", "--json").maskingIDs == .ok(
            #"{"set":"main","revision":3,"selectedIndex":0,"tabs":[{"index":0,"id":"ID","title":"Home","selected":true,"payload":{}},{"index":1,"id":"ID","title":"Map","selected":false,"payload":{}}]}"# + "\n"))
    }

    @Test func restoresTitleIndexAndSelection() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "All menu", "Reviews", "Map")
        _ = sandbox.run("select", "main", "Reviews")
        #expect(sandbox.run("remove", "main", "Reviews") == .ok("removed 1 tab from main\n"))
        #expect(sandbox.list("main") == "  0  Home\n  1  All menu\n* 2  Map\n")
        #expect(sandbox.run("reopen", "main") == .ok("reopened 2: Reviews\n"))
        #expect(sandbox.list("main") == "  0  Home\n  1  All menu\n* 2  Reviews\n  3  Map\n")
    }

    @Test func anUnselectedTabComesBackUnselected() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "All menu", "Reviews")
        _ = sandbox.run("select", "main", "Reviews")
        _ = sandbox.run("remove", "main", "All menu")
        #expect(sandbox.run("reopen", "main") == .ok("reopened 1: All menu\n"))
        #expect(sandbox.list("main") == "  0  Home\n  1  All menu\n* 2  Reviews\n")
    }

    @Test func theLastRemovalComesFirstAtItsIndexClampedToTheEnd() {
        let sandbox = Sandbox()
        sandbox.add("main", "A", "B", "C", "D")
        _ = sandbox.run("remove", "main", "3")
        _ = sandbox.run("remove", "main", "0")
        #expect(sandbox.run("reopen", "main") == .ok("reopened 0: A\n"))
        _ = sandbox.run("remove", "main", "-1")
        #expect(sandbox.run("reopen", "main") == .ok("reopened 2: C\n"))
        #expect(sandbox.run("reopen", "main") == .ok("reopened 3: D\n"))
        #expect(sandbox.list("main") == "* 0  A\n  1  B\n  2  C\n  3  D\n")
        #expect(sandbox.run("reopen", "main").code == 1)
    }

    @Test func aBatchReopenedOneByOneComesBackInItsOrder() {
        let sandbox = Sandbox()
        sandbox.add("r", "A", "B", "C", "D")
        _ = sandbox.run("remove", "r", "A", "B")
        #expect(sandbox.run("reopen", "r") == .ok("reopened 0: A\n"))
        #expect(sandbox.run("reopen", "r") == .ok("reopened 1: B\n"))
        #expect(sandbox.list("r") == "* 0  A\n  1  B\n  2  C\n  3  D\n")
    }

    @Test func aBatchWithTheSelectionComesBackSelected() {
        let sandbox = Sandbox()
        sandbox.add("r", "A", "B", "C", "D", "E")
        _ = sandbox.run("select", "r", "D")
        _ = sandbox.run("remove", "r", "3", "1", "4")
        #expect(sandbox.list("r") == "  0  A\n* 1  C\n")
        for _ in 0..<3 { _ = sandbox.run("reopen", "r") }
        #expect(sandbox.list("r") == "  0  A\n  1  B\n  2  C\n* 3  D\n  4  E\n")
    }

    @Test func aTitleThatCameBackDoesNotBlockTheOthers() {
        let sandbox = Sandbox()
        sandbox.add("x", "A", "B", "C")
        _ = sandbox.run("remove", "x", "A")
        _ = sandbox.run("remove", "x", "B")
        _ = sandbox.run("add", "x", "B")
        #expect(sandbox.run("reopen", "x") == .ok("reopened 0: A\n"))
        #expect(sandbox.list("x") == "* 0  A\n  1  C\n  2  B\n")
        #expect(sandbox.run("reopen", "x") == .failure(1, "tabstore: error: set \"x\" has no removed tab to reopen\n"))
    }

    @Test func ifRevisionGuardsReopen() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "Map")
        _ = sandbox.run("remove", "main", "Map")
        #expect(sandbox.run("reopen", "main", "--if-revision", "1") == .failure(1,
            "tabstore: error: set \"main\" changed since revision 1 (now 2)\n"))
        #expect(sandbox.list("main") == "* 0  Home\n")
        #expect(sandbox.run("reopen", "main", "--if-revision", "2") == .ok("reopened 1: Map\n"))
    }
}
