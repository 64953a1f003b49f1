import Testing

@Suite struct AddCommandTests {
    @Test func addingTabsCreatesTheSetAndSelectsTheFirstTab() {
        let sandbox = Sandbox()
        #expect(sandbox.run("add", "store-detail", "Home", "All menu", "Reviews") == .ok("added 3 tabs to store-detail\n"))
        #expect(sandbox.list("store-detail") == "* 0  Home\n  1  All menu\n  2  Reviews\n")
    }

    @Test func oneTabIsSingular() {
        let sandbox = Sandbox()
        #expect(sandbox.run("add", "main", "Home") == .ok("added 1 tab to main\n"))
    }

    @Test func noTitlesCreatesAnEmptySet() {
        let sandbox = Sandbox()
        #expect(sandbox.run("add", "empty") == .ok("created set empty (no tabs)\n"))
        #expect(sandbox.run("list") == .ok("empty  0 tabs  -\n"))
    }

    @Test func addingToAnExistingSetAppendsAndKeepsTheSelection() {
        let sandbox = Sandbox()
        sandbox.add("main", "Red", "Blue")
        #expect(sandbox.run("add", "main", "Yellow", "Green") == .ok("added 2 tabs to main\n"))
        #expect(sandbox.list("main") == "* 0  Red\n  1  Blue\n  2  Yellow\n  3  Green\n")
    }

    @Test(arguments: [
        ("0", "  0  Pink\n* 1  Red\n  2  Blue\n"),
        ("1", "* 0  Red\n  1  Pink\n  2  Blue\n"),
        ("2", "* 0  Red\n  1  Blue\n  2  Pink\n"),
        ("-1", "* 0  Red\n  1  Blue\n  2  Pink\n"),
        ("-3", "  0  Pink\n* 1  Red\n  2  Blue\n"),
    ])
    func atInsertsAtTheIndexAndTheSelectionStays(at: String, expected: String) {
        let sandbox = Sandbox()
        sandbox.add("main", "Red", "Blue")
        #expect(sandbox.run("add", "main", "Pink", "--at", at) == .ok("added 1 tab to main\n"))
        #expect(sandbox.list("main") == expected)
    }

    @Test func atOutOfRangeIsRefusedAndChangesNothing() {
        let sandbox = Sandbox()
        sandbox.add("main", "Red", "Blue")
        #expect(sandbox.run("add", "main", "Pink", "--at", "3") == .failure(1,
            "tabstore: error: insertion index 3 is out of range for set \"main\" (valid: 0...2 or -3...-1)\n"))
        #expect(sandbox.run("add", "main", "Pink", "--at=-4") == .failure(1,
            "tabstore: error: insertion index -4 is out of range for set \"main\" (valid: 0...2 or -3...-1)\n"))
        #expect(sandbox.list("main") == "* 0  Red\n  1  Blue\n")
    }

    @Test func atMustBeAnInteger() {
        let sandbox = Sandbox()
        #expect(sandbox.run("add", "main", "Pink", "--at", "first") == .failure(2, """
            tabstore: error: The value 'first' is invalid for '--at <index>': it is not an integer (see 'tabstore help add')

            """))
    }

    @Test func digitTitlesAreTitles() {
        let sandbox = Sandbox()
        #expect(sandbox.run("add", "numbers", "1", "2", "-3") == .ok("added 3 tabs to numbers\n"))
        #expect(sandbox.list("numbers") == "* 0  1\n  1  2\n  2  -3\n")
    }

    @Test func koreanAndEmojiTitlesAreStoredAsGiven() {
        let sandbox = Sandbox()
        #expect(sandbox.run("add", "블로그", "iOS 앱 개발 알아가기", "🍕 피자", "👨‍👩‍👧") == .ok("added 3 tabs to 블로그\n"))
        #expect(sandbox.list("블로그") == "* 0  iOS 앱 개발 알아가기\n  1  🍕 피자\n  2  👨‍👩‍👧\n")
    }

    @Test func aDuplicateTitleIsRefusedAndChangesNothing() {
        let sandbox = Sandbox()
        sandbox.add("main", "Red")
        #expect(sandbox.run("add", "main", "Blue", "Red") == .failure(1,
            "tabstore: error: set \"main\" already has a tab titled \"Red\"\n"))
        #expect(sandbox.run("add", "main", "Blue", "Blue") == .failure(1,
            "tabstore: error: title \"Blue\" is given twice\n"))
        #expect(sandbox.list("main") == "* 0  Red\n")
    }

    @Test func anEmptyTitleIsRefused() {
        let sandbox = Sandbox()
        #expect(sandbox.run("add", "main", "") == .failure(1, "tabstore: error: invalid title \"\": it is empty\n"))
        #expect(sandbox.run("list") == .ok(""))
    }

    @Test func jsonPrintsTheSet() {
        let sandbox = Sandbox()
        #expect(sandbox.run("add", "main", "Home", "홈", "--json").maskingIDs == .ok(
            #"{"set":"main","revision":1,"selectedIndex":0,"tabs":[{"index":0,"id":"ID","title":"Home","selected":true,"payload":{}},{"index":1,"id":"ID","title":"홈","selected":false,"payload":{}}]}"# + "\n"))
    }

    @Test func jsonOfAnEmptySetHasNullSelection() {
        let sandbox = Sandbox()
        #expect(sandbox.run("--json", "add", "empty") == .ok(#"{"set":"empty","revision":1,"selectedIndex":null,"tabs":[]}"# + "\n"))
    }

    @Test func aTitleRepeatedInTheArgumentsIsNamedAsSuch() {
        let sandbox = Sandbox()
        #expect(sandbox.run("add", "r", "A", "A") == .failure(1, "tabstore: error: title \"A\" is given twice\n"))
        #expect(sandbox.run("list") == .ok(""))
    }

    @Test(arguments: [
        (" ", #"invalid title " ": it has no visible character"#),
        ("\u{200B}\u{00A0}", #"invalid title "\u{200b}\u{a0}": it has no visible character"#),
        ("abc\u{202E}fed", #"invalid title "abc\u{202e}fed": it contains U+202E, a bidirectional control or line separator that can make a display misleading"#),
        ("x\u{2067}", #"invalid title "x\u{2067}": it contains U+2067, a bidirectional control or line separator that can make a display misleading"#),
        ("a\u{2028}b", #"invalid title "a\u{2028}b": it contains U+2028, a bidirectional control or line separator that can make a display misleading"#),
    ])
    func invisibleAndMisleadingTitlesAreRefused(title: String, message: String) {
        let sandbox = Sandbox()
        #expect(sandbox.run("add", "main", title) == .failure(1, "tabstore: error: \(message)\n"))
        #expect(sandbox.run("list") == .ok(""))
    }

    @Test func aSetNameWithAnOverrideIsRefused() {
        let sandbox = Sandbox()
        #expect(sandbox.run("add", "\u{202E}main", "A") == .failure(1,
            "tabstore: error: invalid set name \"\\u{202e}main\": it contains U+202E, a bidirectional control or line separator that can make a display misleading\n"))
        #expect(sandbox.run("list") == .ok(""))
    }

    @Test func emojiWithZeroWidthJoinersAreTitles() {
        let sandbox = Sandbox()
        #expect(sandbox.run("add", "main", "👩\u{200D}💻", "🏳\u{FE0F}\u{200D}🌈") == .ok("added 2 tabs to main\n"))
        #expect(sandbox.list("main") == "* 0  👩\u{200D}💻\n  1  🏳\u{FE0F}\u{200D}🌈\n")
    }
}
