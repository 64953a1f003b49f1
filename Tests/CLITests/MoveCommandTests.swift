import Testing

@Suite struct MoveCommandTests {
    private func colours() -> Sandbox {
        let sandbox = Sandbox()
        sandbox.add("main", "Red", "Blue", "Yellow")
        return sandbox
    }

    @Test func theSelectionFollowsTheTab() {
        let sandbox = colours()
        #expect(sandbox.run("move", "main", "Red", "2") == .ok("moved Red to 2\n"))
        #expect(sandbox.list("main") == "  0  Blue\n  1  Yellow\n* 2  Red\n")
    }

    @Test func negativeIndicesForTabAndDestination() {
        let sandbox = colours()
        #expect(sandbox.run("move", "main", "-1", "-3") == .ok("moved Yellow to 0\n"))
        #expect(sandbox.list("main") == "  0  Yellow\n* 1  Red\n  2  Blue\n")
        #expect(sandbox.run("move", "main", "0", "-1") == .ok("moved Yellow to 2\n"))
    }

    @Test func digitTitleWithTitleOption() {
        let sandbox = Sandbox()
        sandbox.add("numbers", "0", "1", "2")
        #expect(sandbox.run("move", "numbers", "--title", "1", "0") == .ok("moved 1 to 0\n"))
        #expect(sandbox.list("numbers") == "  0  1\n* 1  0\n  2  2\n")
    }

    /// Out of range however large: beyond `Int` too, named as typed, exit 1 as for a tab.
    @Test(arguments: ["3", "-4", "9223372036854775807", "-9223372036854775808", "99999999999999999999", "-99999999999999999999"])
    func destinationOutOfRangeChangesNothing(to: String) {
        let sandbox = colours()
        #expect(sandbox.run("move", "main", "0", "--", to) == .failure(1,
            "tabstore: error: index \(to) is out of range for set \"main\" (valid: 0...2 or -3...-1)\n"))
        #expect(sandbox.list("main") == "* 0  Red\n  1  Blue\n  2  Yellow\n")
    }

    @Test(arguments: ["last", "1.5", "1e3"])
    func destinationMustBeAnInteger(to: String) {
        let sandbox = colours()
        let output = sandbox.run("move", "main", "0", "--", to)
        #expect(output == .failure(2, """
            tabstore: error: The value '\(to)' is invalid for '<to>': it is not an integer (see 'tabstore help move')

            """))
    }

    @Test func titleOptionCannotGiveTheDestination() {
        let sandbox = colours()
        #expect(sandbox.run("move", "main", "0", "--title", "1") == .failure(2, """
            tabstore: error: '--title 1' cannot be used for '<to>', which is not a tab or title (see 'tabstore help move')

            """))
    }

    @Test func jsonPrintsTheSet() {
        let sandbox = colours()
        #expect(sandbox.run("move", "main", "Yellow", "0", "--json").maskingIDs == .ok(
            #"{"set":"main","revision":2,"selectedIndex":1,"tabs":[{"index":0,"id":"ID","title":"Yellow","selected":false,"payload":{}},{"index":1,"id":"ID","title":"Red","selected":true,"payload":{}},{"index":2,"id":"ID","title":"Blue","selected":false,"payload":{}}]}"# + "\n"))
    }
}
