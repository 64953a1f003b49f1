import Testing
@testable import TabStoreKit

@Suite struct TabStoreEditingTests {
    /// A store of `backend` with the set "main": A (selected), B, C, D, E.
    private func makeStore(_ backend: StoreBackend) throws -> TabStore {
        let store = try backend.makeStore()
        try store.add(["A", "B", "C", "D", "E"], to: "main", creatingSet: true)
        return store
    }

    private func state(_ store: TabStore) throws -> [String] {
        try picture(store.tabSet(named: "main"))
    }

    private func failure(_ body: () throws(TabStoreError) -> some Any) -> TabStoreError? {
        thrownError(body)
    }

    @Test(arguments: StoreBackend.allCases)
    func addInsertsAtIndexAndKeepsSelection(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        try store.select(.title("B"), in: "main")
        let set = try store.add(["X", "Y"], to: "main", at: 1, creatingSet: true)
        #expect(picture(set) == ["A", "X", "Y", "*B", "C", "D", "E"])
    }

    @Test(arguments: StoreBackend.allCases)
    func addAtMinusOneAppendsAndAtZeroPrepends(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        try store.add(["Z"], to: "main", at: -1, creatingSet: true)
        try store.add(["P"], to: "main", at: 0, creatingSet: true)
        try store.add(["Q"], to: "main", at: -2, creatingSet: true)
        #expect(try state(store) == ["P", "*A", "B", "C", "D", "E", "Q", "Z"])
    }

    @Test(arguments: StoreBackend.allCases)
    func addCreatesTheSetAndKeepsAnyUnicodeExactly(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        let titles = ["iOS 앱 개발 알아가기", "😀 Emoji", "e\u{301}", "é", "'; DROP TABLE tab; --", "100%"]
        let set = try store.add(titles, to: "새 세트", creatingSet: true)
        #expect(set.tabs.map(\.title).map { Array($0.utf8) } == titles.map { Array($0.utf8) })
        #expect(set.selectedIndex == 0)
        #expect(try store.tabSets().map(\.name) == ["main", "새 세트"])
    }

    @Test(arguments: StoreBackend.allCases, [
        (["B"], TabStoreError(.duplicateTitle(title: "B", set: "main"))),
        (["X", "X"], TabStoreError(.repeatedTitle(title: "X"))),
        (["   "], TabStoreError(.invalidTitle(title: "   ", problem: .noVisibleCharacter))),
        (["\u{200B}\u{3000}"], TabStoreError(.invalidTitle(title: "\u{200B}\u{3000}", problem: .noVisibleCharacter))),
        (["\u{2060}"], TabStoreError(.invalidTitle(title: "\u{2060}", problem: .noVisibleCharacter))),
        (["abc\u{202E}fed"], TabStoreError(.invalidTitle(title: "abc\u{202E}fed", problem: .misleadingCharacter(scalar: 0x202E)))),
        (["\u{2066}x"], TabStoreError(.invalidTitle(title: "\u{2066}x", problem: .misleadingCharacter(scalar: 0x2066)))),
        (["a\u{2028}b"], TabStoreError(.invalidTitle(title: "a\u{2028}b", problem: .misleadingCharacter(scalar: 0x2028)))),
        (["a\u{2029}"], TabStoreError(.invalidTitle(title: "a\u{2029}", problem: .misleadingCharacter(scalar: 0x2029)))),
        ([""], TabStoreError(.invalidTitle(title: "", problem: .empty))),
        (["a\u{0}b"], TabStoreError(.invalidTitle(title: "a\u{0}b", problem: .controlCharacter(scalar: 0)))),
        (["tab\t"], TabStoreError(.invalidTitle(title: "tab\t", problem: .controlCharacter(scalar: 9)))),
        ([String(repeating: "가", count: 257)], TabStoreError(.invalidTitle(title: String(repeating: "가", count: 257), problem: .tooLong(characters: 257)))),
        (["ok", "bad\n"], TabStoreError(.invalidTitle(title: "bad\n", problem: .controlCharacter(scalar: 10)))),
    ])
    func addRefusesBadTitlesAndWritesNothing(backend: StoreBackend, example: ([String], TabStoreError)) throws {
        let (titles, expected) = example
        let store = try makeStore(backend)
        let before = try store.tabSet(named: "main")
        #expect(failure { () throws(TabStoreError) in try store.add(titles, to: "main", creatingSet: true) } == expected)
        #expect(try store.tabSet(named: "main") == before)
    }

    @Test(arguments: StoreBackend.allCases)
    func emojiWithZeroWidthJoinersAndPaddedTitlesStayValid(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        let titles = ["👩\u{200D}👩\u{200D}👧", "🏳\u{FE0F}\u{200D}🌈", " padded ", "\u{200B}x"]
        #expect(try store.add(titles, to: "main", creatingSet: true).tabs.suffix(4).map(\.title) == titles)
    }

    @Test(arguments: StoreBackend.allCases)
    func misleadingSetNamesAreRefused(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        #expect(failure { () throws(TabStoreError) in try store.add(["x"], to: "\u{202D}s", creatingSet: true) }
            == TabStoreError(.invalidSetName(name: "\u{202D}s", problem: .misleadingCharacter(scalar: 0x202D))))
        #expect(failure { () throws(TabStoreError) in try store.renameSet("main", to: "\t") }
            == TabStoreError(.invalidSetName(name: "\t", problem: .controlCharacter(scalar: 9))))
        #expect(failure { () throws(TabStoreError) in try store.renameSet("main", to: " \u{FEFF}") }
            == TabStoreError(.invalidSetName(name: " \u{FEFF}", problem: .noVisibleCharacter)))
        #expect(try store.tabSets().map(\.name) == ["main"])
    }

    @Test func messagesForTheNewProblems() {
        #expect(TabStoreError(.repeatedTitle(title: "A")).description == #"title "A" is given twice"#)
        #expect(TabStoreError(.invalidTitle(title: "  ", problem: .noVisibleCharacter)).description
            == #"invalid title "  ": it has no visible character"#)
        // The escape keeps the message from being reordered on the screen.
        #expect(TabStoreError(.invalidTitle(title: "a\u{202E}b", problem: .misleadingCharacter(scalar: 0x202E))).description
            == #"invalid title "a\u{202e}b": it contains U+202E, a bidirectional control or line separator that can make a display misleading"#)
    }

    @Test(arguments: StoreBackend.allCases)
    func titleOfExactlyTheLimitIsAccepted(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        let title = String(repeating: "👍", count: maximumNameLength)
        #expect(try store.add([title], to: "main", creatingSet: true).tabs.last?.title == title)
    }

    @Test(arguments: StoreBackend.allCases)
    func addOutsideTheInsertionRangeFails(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        #expect(failure { () throws(TabStoreError) in try store.add(["X"], to: "main", at: 6, creatingSet: true) }
            == TabStoreError(.insertionIndexOutOfRange(index: 6, count: 5, set: "main")))
        #expect(failure { () throws(TabStoreError) in try store.add(["X"], to: "main", at: -7, creatingSet: true) }
            == TabStoreError(.insertionIndexOutOfRange(index: -7, count: 5, set: "main")))
        #expect(failure { () throws(TabStoreError) in try store.add(["X"], to: "new", at: 1, creatingSet: true) }
            == TabStoreError(.insertionIndexOutOfRange(index: 1, count: 0, set: "new")))
        #expect(try store.tabSets().map(\.name) == ["main"])
    }

    @Test(arguments: StoreBackend.allCases)
    func removingTheSelectedTabSelectsItsRightNeighbour(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        try store.select(.title("B"), in: "main")
        #expect(try picture(store.remove([.title("B")], from: "main")) == ["A", "*C", "D", "E"])
    }

    @Test(arguments: StoreBackend.allCases)
    func removingTheSelectedLastTabSelectsTheNewLast(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        try store.select(.index(-1), in: "main")
        #expect(try picture(store.remove([.index(-1)], from: "main")) == ["A", "B", "C", "*D"])
    }

    @Test(arguments: StoreBackend.allCases)
    func removingOtherTabsKeepsTheSelectionOnItsTab(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        try store.select(.title("D"), in: "main")
        #expect(try picture(store.remove([.index(0), .title("C")], from: "main")) == ["B", "*D", "E"])
    }

    @Test(arguments: StoreBackend.allCases)
    func removingSeveralIncludingSelectedPicksTheFirstSurvivorToItsRight(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        try store.select(.title("B"), in: "main")
        #expect(try picture(store.remove([.title("C"), .title("B")], from: "main")) == ["A", "*D", "E"])
    }

    @Test(arguments: StoreBackend.allCases)
    func referencesAreResolvedBeforeAnyRemoval(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        // Index 1 and 2 name B and C as the set stands now, not after removing one.
        #expect(try picture(store.remove([.index(1), .index(2)], from: "main")) == ["*A", "D", "E"])
    }

    @Test(arguments: StoreBackend.allCases)
    func aTabNamedTwiceIsRemovedOnce(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        #expect(try picture(store.remove([.index(1), .title("B"), .index(-4)], from: "main")) == ["*A", "C", "D", "E"])
    }

    @Test(arguments: StoreBackend.allCases)
    func removingEveryTabLeavesAnEmptySetWithNoSelection(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        let set = try store.remove((0..<5).map(TabRef.index), from: "main")
        #expect(set.tabs.isEmpty)
        #expect(set.selectedIndex == nil)
        #expect(set.lastSelectedIndex == 0)
        #expect(try picture(store.add(["N"], to: "main", creatingSet: true)) == ["*N"])
    }

    @Test(arguments: StoreBackend.allCases)
    func aFailingRemoveRemovesNothing(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        let before = try store.tabSet(named: "main")
        #expect(failure { () throws(TabStoreError) in try store.remove([.index(0), .index(9)], from: "main") }
            == TabStoreError(.indexOutOfRange(index: 9, count: 5, set: "main")))
        #expect(try store.tabSet(named: "main") == before)
    }

    @Test(arguments: StoreBackend.allCases)
    func movingKeepsTheSelectionOnTheSameTab(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        try store.select(.title("B"), in: "main")
        #expect(try picture(store.move(.title("B"), to: -1, in: "main")) == ["A", "C", "D", "E", "*B"])
        #expect(try picture(store.move(.index(-1), to: 0, in: "main")) == ["*B", "A", "C", "D", "E"])
        #expect(try picture(store.move(.title("D"), to: 1, in: "main")) == ["*B", "D", "A", "C", "E"])
        #expect(try store.selectedTab(in: "main").index == 0)
    }

    @Test(arguments: StoreBackend.allCases)
    func moveOutOfRangeFails(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        #expect(failure { () throws(TabStoreError) in try store.move(.index(0), to: 5, in: "main") }
            == TabStoreError(.indexOutOfRange(index: 5, count: 5, set: "main")))
        #expect(try state(store) == ["*A", "B", "C", "D", "E"])
    }

    @Test(arguments: StoreBackend.allCases)
    func movingToTheSamePlaceChangesNothing(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        let before = try store.tabSet(named: "main")
        #expect(try store.move(.index(2), to: 2, in: "main") == TabSetEdit(set: before, event: nil))
    }

    @Test(arguments: StoreBackend.allCases)
    func editsReportWhatChanged(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        try store.select(.title("C"), in: "main")
        #expect(try store.remove([.index(-1), .title("C"), .index(2)], from: "main").event.ignoringIDs == .removed([
            TabUpdate(index: 2, tab: Tab(id: .unknown, title: "C", isSelected: true)),
            TabUpdate(index: 4, tab: Tab(id: .unknown, title: "E", isSelected: false)),
        ]))
        #expect(try store.rename(.index(0), to: "Z", in: "main").event == .renamed(index: 0, from: "A", to: "Z"))
        #expect(try store.rename(.index(0), to: "Z", in: "main").event == nil)
        #expect(try store.move(.title("Z"), to: -1, in: "main").event == .moved(title: "Z", from: 0, to: 2))
        #expect(try store.reopen(in: "main").event.ignoringIDs == .reopened(TabUpdate(index: 2, tab: Tab(id: .unknown, title: "C", isSelected: true))))
        #expect(try store.add(["N"], to: "main", at: 0, creatingSet: true).event == .added(titles: ["N"], index: 0))
        #expect(try store.add([], to: "main", creatingSet: true).event == nil)
    }

    @Test(arguments: StoreBackend.allCases)
    func renameKeepsPositionAndSelection(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        #expect(try picture(store.rename(.index(0), to: "Home", in: "main")) == ["*Home", "B", "C", "D", "E"])
        #expect(failure { () throws(TabStoreError) in try store.rename(.index(1), to: "C", in: "main") }
            == TabStoreError(.duplicateTitle(title: "C", set: "main")))
        #expect(failure { () throws(TabStoreError) in try store.rename(.index(1), to: "", in: "main") }
            == TabStoreError(.invalidTitle(title: "", problem: .empty)))
    }

    @Test(arguments: StoreBackend.allCases)
    func replacingTheTabListKeepsTheSelectedTitleWhenStillThere(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        try store.select(.title("C"), in: "main")
        #expect(try picture(store.replaceTabs(of: "main", with: ["X", "C", "Y"])) == ["X", "*C", "Y"])
        #expect(try picture(store.replaceTabs(of: "main", with: ["P", "Q"])) == ["*P", "Q"])
        #expect(try store.replaceTabs(of: "main", with: []).selectedIndex == nil)
    }

    @Test(arguments: StoreBackend.allCases)
    func everyMutationGrowsTheRevision(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        var revisions = [try store.tabSet(named: "main").revision]
        try store.add(["F"], to: "main", creatingSet: true)
        revisions.append(try store.tabSet(named: "main").revision)
        try store.select(.index(1), in: "main")
        revisions.append(try store.tabSet(named: "main").revision)
        try store.move(.index(0), to: 3, in: "main")
        revisions.append(try store.tabSet(named: "main").revision)
        try store.rename(.index(0), to: "Renamed", in: "main")
        revisions.append(try store.tabSet(named: "main").revision)
        try store.remove([.index(0)], from: "main")
        revisions.append(try store.tabSet(named: "main").revision)
        try store.replaceTabs(of: "main", with: ["Z"])
        revisions.append(try store.tabSet(named: "main").revision)
        try store.renameSet("main", to: "other")
        revisions.append(try store.tabSet(named: "other").revision)
        #expect(revisions == Array(1...8))
    }

    @Test(arguments: StoreBackend.allCases)
    func setsCanBeRenamedAndRemoved(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        try store.add(["x"], to: "second", creatingSet: true)
        #expect(failure { () throws(TabStoreError) in try store.renameSet("main", to: "second") } == TabStoreError(.setAlreadyExists(set: "second")))
        try store.renameSet("main", to: "first")
        #expect(try store.tabSets().map(\.name) == ["first", "second"])
        try store.removeSet("first")
        #expect(try store.tabSets().map(\.name) == ["second"])
        #expect(failure { () throws(TabStoreError) in try store.removeSet("first") } == TabStoreError(.setNotFound(set: "first")))
        #expect(failure { () throws(TabStoreError) in try store.tabSet(named: "first") } == TabStoreError(.setNotFound(set: "first")))
    }

    @Test(arguments: StoreBackend.allCases)
    func listSummarisesEverySetByName(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        try store.add([], to: "empty", creatingSet: true)
        try store.select(.index(3), in: "main")
        #expect(try store.tabSets() == [
            TabSetSummary(name: "empty", tabCount: 0, selectedIndex: nil, selectedTitle: nil, revision: 1),
            TabSetSummary(name: "main", tabCount: 5, selectedIndex: 3, selectedTitle: "D", revision: 2),
        ])
    }

    @Test(arguments: StoreBackend.allCases)
    func invalidSetNamesAreRefused(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        #expect(failure { () throws(TabStoreError) in try store.add(["x"], to: "", creatingSet: true) } == TabStoreError(.invalidSetName(name: "", problem: .empty)))
        #expect(failure { () throws(TabStoreError) in try store.renameSet("main", to: "a\u{7F}") }
            == TabStoreError(.invalidSetName(name: "a\u{7F}", problem: .controlCharacter(scalar: 0x7F))))
        #expect(try store.tabSets().map(\.name) == ["main"])
    }

    /// A caller tells a call that saved a change from one that had nothing to do by what
    /// the call returned (the CLI's "the change itself was saved"): a reselection, a rename
    /// or move to where the tab is, and a refusal leave the set's revision and history as
    /// they were; a select and an add move both.
    @Test(arguments: StoreBackend.allCases)
    func aCallsResultSaysWhetherItSavedAChange(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        let opened = try store.tabSet(named: "main").revision
        let history = try store.history(of: "main", limit: 100)
        let reselection = try store.select(.title("A"), in: "main")
        #expect(reselection.isReselection && reselection.revision == opened)
        #expect(try store.rename(.title("B"), to: "B", in: "main").event == nil)
        #expect(try store.move(.title("C"), to: 2, in: "main").event == nil)
        #expect(failure { () throws(TabStoreError) in try store.select(9, in: "main") }?.code == .indexOutOfRange)
        #expect(try store.tabSet(named: "main").revision == opened)
        #expect(try store.history(of: "main", limit: 100) == history)
        let selection = try store.select(.title("C"), in: "main")
        #expect(!selection.isReselection && selection.revision == opened + 1)
        let added = try store.add(["F"], to: "main")
        #expect(added.event != nil && added.revision == opened + 2)
        #expect(try store.history(of: "main", limit: 100).count == history.count + 2)
        #expect(try state(store) == ["A", "B", "*C", "D", "E", "F"])
    }
}
