import Testing

@Suite struct ListCommandTests {
    @Test func anEmptyDatabaseListsNothing() {
        let sandbox = Sandbox()
        #expect(sandbox.run("list") == .ok(""))
        #expect(sandbox.run("list", "--json") == .ok(#"{"sets":[]}"# + "\n"))
    }

    @Test func setsAreSortedAndAlignedByDisplayWidth() {
        let sandbox = Sandbox()
        sandbox.add("store-detail", "Home", "All menu", "Reviews", "Info", "Photos", "Map", "Menu", "Deals", "Q&A", "Notes", "Share", "More")
        sandbox.add("블로그", "홈")
        sandbox.add("🍕", "Order", "Track")
        sandbox.add("empty")
        _ = sandbox.run("select", "store-detail", "Reviews")
        // Byte order: ASCII names, then Hangul (U+BE14), then the emoji (U+1F355).
        #expect(sandbox.run("list") == .ok("""
            empty          0 tabs  -
            store-detail  12 tabs  Reviews
            블로그         1 tab   홈
            🍕             2 tabs  Order

            """))
    }

    @Test func jsonListsSummaries() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "Reviews")
        sandbox.add("empty")
        _ = sandbox.run("select", "main", "1")
        #expect(sandbox.run("list", "--json") == .ok(
            #"{"sets":[{"set":"empty","tabCount":0,"selectedIndex":null,"selectedTitle":null,"revision":1},{"set":"main","tabCount":2,"selectedIndex":1,"selectedTitle":"Reviews","revision":2}]}"# + "\n"))
    }

    @Test func aSetListsItsTabsWithTheSelectedMarked() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "All menu", "Reviews")
        _ = sandbox.run("select", "main", "All menu")
        #expect(sandbox.run("list", "main") == .ok("  0  Home\n* 1  All menu\n  2  Reviews\n"))
    }

    @Test func indicesAreRightAligned() {
        let sandbox = Sandbox()
        sandbox.add("many", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k")
        _ = sandbox.run("select", "many", "-1")
        let output = sandbox.run("list", "many")
        #expect(output.stdout.hasPrefix("   0  a\n   1  b\n"))
        #expect(output.stdout.hasSuffix("   9  j\n* 10  k\n"))
    }

    @Test func anEmptySetSaysItHasNoTabs() {
        let sandbox = Sandbox()
        sandbox.add("empty")
        #expect(sandbox.run("list", "empty") == .ok("(no tabs)\n"))
        #expect(sandbox.run("list", "empty", "--json") == .ok(#"{"set":"empty","revision":1,"selectedIndex":null,"tabs":[]}"# + "\n"))
    }

    @Test func jsonOfASet() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "🍕")
        #expect(sandbox.run("--json", "list", "main").maskingIDs == .ok(
            #"{"set":"main","revision":1,"selectedIndex":0,"tabs":[{"index":0,"id":"ID","title":"Home","selected":true,"payload":{}},{"index":1,"id":"ID","title":"🍕","selected":false,"payload":{}}]}"# + "\n"))
    }

    @Test func anUnknownSet() {
        let sandbox = Sandbox()
        #expect(sandbox.run("list", "nope") == .failure(1, "tabstore: error: no tab set named \"nope\"\n"))
    }

    @Test func listTakesOneSetAtMost() {
        let sandbox = Sandbox()
        #expect(sandbox.run("list", "a", "b") == .failure(2, """
            tabstore: error: Unexpected argument 'b' (see 'tabstore help list')

            """))
    }
}
