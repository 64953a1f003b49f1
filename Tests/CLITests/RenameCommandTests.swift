import Testing

@Suite struct RenameCommandTests {
    @Test func renamesByIndexAndByTitle() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "Reviews")
        #expect(sandbox.run("rename", "main", "-1", "리뷰") == .ok("renamed Reviews to 리뷰\n"))
        #expect(sandbox.run("rename", "main", "Home", "🏠 Home") == .ok("renamed Home to 🏠 Home\n"))
        #expect(sandbox.list("main") == "* 0  🏠 Home\n  1  리뷰\n")
    }

    @Test func digitTitlesOnBothSides() {
        let sandbox = Sandbox()
        sandbox.add("numbers", "0", "1")
        #expect(sandbox.run("rename", "numbers", "--title", "1", "2") == .ok("renamed 1 to 2\n"))
        #expect(sandbox.run("rename", "numbers", "0", "--title", "3") == .ok("renamed 0 to 3\n"))
        #expect(sandbox.list("numbers") == "* 0  3\n  1  2\n")
    }

    @Test func aDuplicateTitleChangesNothing() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "Reviews")
        #expect(sandbox.run("rename", "main", "0", "Reviews") == .failure(1,
            "tabstore: error: set \"main\" already has a tab titled \"Reviews\"\n"))
        #expect(sandbox.list("main") == "* 0  Home\n  1  Reviews\n")
    }

    @Test func aControlCharacterIsRefused() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home")
        #expect(sandbox.run("rename", "main", "0", "Two\nLines") == .failure(1,
            "tabstore: error: invalid title \"Two\\nLines\": it contains the control character U+000A\n"))
    }

    @Test func jsonPrintsTheSet() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home")
        #expect(sandbox.run("rename", "main", "0", "Start", "--json").maskingIDs == .ok(
            #"{"set":"main","revision":2,"selectedIndex":0,"tabs":[{"index":0,"id":"ID","title":"Start","selected":true,"payload":{}}]}"# + "\n"))
    }

    @Test func missingNewTitle() {
        let sandbox = Sandbox()
        #expect(sandbox.run("rename", "main", "0") == .failure(2, """
            tabstore: error: Missing expected argument '<new-title>' (see 'tabstore help rename')

            """))
    }
}
