import Testing

@Suite struct RemoveCommandTests {
    private func colours() -> Sandbox {
        let sandbox = Sandbox()
        sandbox.add("main", "Red", "Blue", "Yellow", "Green", "Pink")
        return sandbox
    }

    @Test func referencesAreResolvedBeforeAnyRemoval() {
        let sandbox = colours()
        #expect(sandbox.run("remove", "main", "0", "1") == .ok("removed 2 tabs from main\n"))
        #expect(sandbox.list("main") == "* 0  Yellow\n  1  Green\n  2  Pink\n")
    }

    @Test func aTabNamedTwiceIsRemovedOnce() {
        let sandbox = colours()
        #expect(sandbox.run("remove", "main", "Pink", "-1", "4") == .ok("removed 1 tab from main\n"))
        #expect(sandbox.list("main") == "* 0  Red\n  1  Blue\n  2  Yellow\n  3  Green\n")
    }

    @Test func removingTheSelectedTabSelectsItsRightNeighbour() {
        let sandbox = colours()
        _ = sandbox.run("select", "main", "Yellow")
        #expect(sandbox.run("remove", "main", "Yellow") == .ok("removed 1 tab from main\n"))
        #expect(sandbox.list("main") == "  0  Red\n  1  Blue\n* 2  Green\n  3  Pink\n")
    }

    @Test func digitTitlesWithTitleOptionMixWithIndices() {
        let sandbox = Sandbox()
        sandbox.add("numbers", "1", "2", "3")
        #expect(sandbox.run("remove", "numbers", "--title", "2", "0") == .ok("removed 2 tabs from numbers\n"))
        #expect(sandbox.list("numbers") == "* 0  3\n")
    }

    @Test func oneBadReferenceRemovesNothing() {
        let sandbox = colours()
        #expect(sandbox.run("remove", "main", "0", "Purple") == .failure(1,
            "tabstore: error: no tab titled \"Purple\" in set \"main\"\n"))
        #expect(sandbox.run("remove", "main", "0", "-9") == .failure(1,
            "tabstore: error: index -9 is out of range for set \"main\" (valid: 0...4 or -5...-1)\n"))
        #expect(sandbox.list("main") == "* 0  Red\n  1  Blue\n  2  Yellow\n  3  Green\n  4  Pink\n")
    }

    @Test func atLeastOneTabIsNeeded() {
        let sandbox = colours()
        #expect(sandbox.run("remove", "main") == .failure(2, """
            tabstore: error: Missing expected argument '<tab>' (see 'tabstore help remove')

            """))
    }

    @Test func jsonPrintsTheSet() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "Reviews")
        #expect(sandbox.run("remove", "main", "0", "--json").maskingIDs == .ok(
            #"{"set":"main","revision":2,"selectedIndex":0,"tabs":[{"index":0,"id":"ID","title":"Reviews","selected":true,"payload":{}}]}"# + "\n"))
        #expect(sandbox.run("remove", "main", "0", "--json") == .ok(
            #"{"set":"main","revision":3,"selectedIndex":null,"tabs":[]}"# + "\n"))
    }
}
