import Testing

@Suite struct SelectCommandTests {
    private func colours() -> Sandbox {
        let sandbox = Sandbox()
        sandbox.add("main", "Red", "Blue", "Yellow", "Green", "Pink")
        return sandbox
    }

    @Test func selectingByIndexMovesTheSelection() {
        let sandbox = colours()
        #expect(sandbox.run("select", "main", "2") == .ok("selected 2: Yellow\n"))
        #expect(sandbox.list("main") == "  0  Red\n  1  Blue\n* 2  Yellow\n  3  Green\n  4  Pink\n")
    }

    @Test func selectingByTitle() {
        let sandbox = colours()
        #expect(sandbox.run("select", "main", "Green") == .ok("selected 3: Green\n"))
    }

    @Test(arguments: [("-1", "selected 4: Pink\n"), ("-5", "already selected 0: Red\n"), ("-2", "selected 3: Green\n")])
    func negativeIndicesCountFromTheEnd(tab: String, expected: String) {
        let sandbox = colours()
        #expect(sandbox.run("select", "main", tab) == .ok(expected))
    }

    @Test func reselectingTheSelectedTabChangesNothing() {
        let sandbox = colours()
        #expect(sandbox.run("select", "main", "Blue") == .ok("selected 1: Blue\n"))
        let revision = sandbox.run("--json", "list", "main").stdout
        #expect(sandbox.run("select", "main", "1") == .ok("already selected 1: Blue\n"))
        #expect(sandbox.run("--json", "list", "main").stdout == revision)
    }

    @Test func digitTitlesNeedTitleOption() {
        let sandbox = Sandbox()
        sandbox.add("numbers", "2", "1", "0")
        #expect(sandbox.run("select", "numbers", "1") == .ok("selected 1: 1\n"))
        #expect(sandbox.run("select", "numbers", "--title", "1") == .ok("already selected 1: 1\n"))
        #expect(sandbox.run("select", "numbers", "--title", "0") == .ok("selected 2: 0\n"))
        #expect(sandbox.run("select", "numbers", "--title=2") == .ok("selected 0: 2\n"))
        #expect(sandbox.run("select", "--title", "1", "numbers") == .failure(2, """
            tabstore: error: '--title 1' cannot be used for '<set>', which is not a tab or title (see 'tabstore help select')

            """))
    }

    @Test func koreanAndEmojiTitles() {
        let sandbox = Sandbox()
        sandbox.add("블로그", "홈", "iOS 앱 개발 알아가기", "🍕")
        #expect(sandbox.run("select", "블로그", "iOS 앱 개발 알아가기") == .ok("selected 1: iOS 앱 개발 알아가기\n"))
        #expect(sandbox.run("select", "블로그", "🍕") == .ok("selected 2: 🍕\n"))
    }

    @Test func titlesAreComparedExactly() {
        let sandbox = Sandbox()
        sandbox.add("main", "Caf\u{E9}")
        #expect(sandbox.run("select", "main", "Cafe\u{301}") == .failure(1,
            "tabstore: error: no tab titled \"Cafe\u{301}\" in set \"main\"\n"))
        #expect(sandbox.run("select", "main", "red") == .failure(1,
            "tabstore: error: no tab titled \"red\" in set \"main\"\n"))
    }

    @Test func jsonReportsTheTwoUpdatesOldThenNew() {
        let sandbox = colours()
        #expect(sandbox.run("select", "main", "-1", "--json") == .ok(
            #"{"set":"main","previousIndex":0,"selectedIndex":4,"changed":true,"updates":[{"index":0,"title":"Red","selected":false},{"index":4,"title":"Pink","selected":true}]}"# + "\n"))
        #expect(sandbox.run("select", "main", "Pink", "--json") == .ok(
            #"{"set":"main","previousIndex":4,"selectedIndex":4,"changed":false,"updates":[]}"# + "\n"))
    }

    @Test func outOfRangeNamesTheValidRange() {
        let sandbox = colours()
        #expect(sandbox.run("select", "main", "5") == .failure(1,
            "tabstore: error: index 5 is out of range for set \"main\" (valid: 0...4 or -5...-1)\n"))
        #expect(sandbox.run("select", "main", "-6") == .failure(1,
            "tabstore: error: index -6 is out of range for set \"main\" (valid: 0...4 or -5...-1)\n"))
    }

    /// Too large for Int is out of range like any other index, not a usage error.
    @Test func anIndexTooBigForIntIsOutOfRange() {
        let sandbox = colours()
        #expect(sandbox.run("select", "main", "99999999999999999999") == .failure(1,
            "tabstore: error: index 99999999999999999999 is out of range for set \"main\" (valid: 0...4 or -5...-1)\n"))
    }

    @Test func anEmptySetHasNothingToSelect() {
        let sandbox = Sandbox()
        sandbox.add("empty")
        #expect(sandbox.run("select", "empty", "0") == .failure(1, "tabstore: error: set \"empty\" has no tabs\n"))
    }

    @Test func anUnknownSetIsNamed() {
        let sandbox = Sandbox()
        #expect(sandbox.run("select", "nope", "0") == .failure(1, "tabstore: error: no tab set named \"nope\"\n"))
        #expect(sandbox.run("select", "nope", "0", "--json") == .failure(1,
            #"{"error":{"code":1,"message":"no tab set named \"nope\""}}"# + "\n"))
    }
}
