import Testing
@testable import TabStoreKit

@Suite struct TabStoreSelectionTests {
    /// A store of `backend` with the set "store-detail": Home (selected), All menu, Reviews.
    private func makeStore(_ backend: StoreBackend) throws -> TabStore {
        let store = try backend.makeStore()
        try store.add(["Home", "All menu", "Reviews"], to: "store-detail", creatingSet: true)
        return store
    }

    @Test(arguments: StoreBackend.allCases)
    func firstTabOfAnEmptySetStartsSelected(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        let set = try store.tabSet(named: "store-detail")
        #expect(picture(set) == ["*Home", "All menu", "Reviews"])
        #expect(set.selectedIndex == 0)
        #expect(set.lastSelectedIndex == 0)
    }

    @Test(arguments: StoreBackend.allCases)
    func selectingAnotherTabReportsOldThenNewPair(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        let change = try store.select(.index(2), in: "store-detail")
        #expect(change.updates.map(\.ignoringIDs) == [
            TabUpdate(index: 0, tab: Tab(id: .unknown, title: "Home", isSelected: false)),
            TabUpdate(index: 2, tab: Tab(id: .unknown, title: "Reviews", isSelected: true)),
        ])
        #expect(change.isReselection == false)
        #expect(change.previousIndex == 0)
        #expect(change.selectedIndex == 2)
        #expect(try picture(store.tabSet(named: "store-detail")) == ["Home", "All menu", "*Reviews"])
        #expect(try store.tabSet(named: "store-detail").lastSelectedIndex == 2)
    }

    @Test(arguments: StoreBackend.allCases)
    func reselectingIsAnEventButNotAChange(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        try store.select(.title("All menu"), in: "store-detail")
        let before = try store.tabSet(named: "store-detail")
        let change = try store.select(.index(1), in: "store-detail")
        #expect(change.isReselection)
        #expect(change.updates.isEmpty)
        #expect(change.previousIndex == 1)
        #expect(change.selectedIndex == 1)
        #expect(change.revision == before.revision)
        #expect(try store.tabSet(named: "store-detail") == before)
    }

    @Test(arguments: StoreBackend.allCases)
    func negativeIndexCountsFromTheEnd(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        #expect(try store.select(.index(-1), in: "store-detail").selectedTab.title == "Reviews")
        #expect(try store.select(.index(-3), in: "store-detail").selectedTab.title == "Home")
    }

    @Test(arguments: StoreBackend.allCases)
    func titleThatLooksLikeAnIndexIsATitle(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        try store.add(["1", "2"], to: "numbers", creatingSet: true)
        let change = try store.select(.title("2"), in: "numbers")
        #expect(change.selectedIndex == 1)
        #expect(try store.select(.index(0), in: "numbers").selectedTab.title == "1")
    }

    @Test(arguments: StoreBackend.allCases)
    func selectingAChangedTabGrowsTheRevision(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        let before = try store.tabSet(named: "store-detail").revision
        let change = try store.select(.index(1), in: "store-detail")
        #expect(change.revision == before + 1)
        #expect(try store.tabSet(named: "store-detail").revision == before + 1)
    }

    @Test(arguments: StoreBackend.allCases)
    func restoreReadsTheSelectedTab(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        try store.select(.title("Reviews"), in: "store-detail")
        #expect(try store.selectedTab(in: "store-detail").ignoringIDs == TabUpdate(index: 2, tab: Tab(id: .unknown, title: "Reviews", isSelected: true)))
    }

    @Test(arguments: StoreBackend.allCases, [
        (TabRef.index(3), TabStoreError(.indexOutOfRange(index: 3, count: 3, set: "store-detail"))),
        (TabRef.index(-4), TabStoreError(.indexOutOfRange(index: -4, count: 3, set: "store-detail"))),
        (TabRef.title("Nope"), TabStoreError(.tabNotFound(title: "Nope", set: "store-detail"))),
        (TabRef.title("home"), TabStoreError(.tabNotFound(title: "home", set: "store-detail"))),
    ])
    func selectingAMissingTabFailsAndChangesNothing(backend: StoreBackend, example: (TabRef, TabStoreError)) throws {
        let (ref, expected) = example
        let store = try makeStore(backend)
        let before = try store.tabSet(named: "store-detail")
        #expect(thrownError { () throws(TabStoreError) in try store.select(ref, in: "store-detail") } == expected)
        #expect(try store.tabSet(named: "store-detail") == before)
    }

    @Test(arguments: StoreBackend.allCases)
    func selectInAMissingOrEmptySetFails(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        #expect(thrownError { () throws(TabStoreError) in try store.select(.index(0), in: "nope") } == TabStoreError(.setNotFound(set: "nope")))
        try store.add([], to: "empty", creatingSet: true)
        #expect(thrownError { () throws(TabStoreError) in try store.select(.index(0), in: "empty") } == TabStoreError(.emptySet(set: "empty")))
        #expect(thrownError { () throws(TabStoreError) in try store.selectedTab(in: "empty") } == TabStoreError(.emptySet(set: "empty")))
    }

    @Test func errorsReadAsSentences() {
        #expect(TabStoreError(.indexOutOfRange(index: 7, count: 3, set: "main")).description
            == #"index 7 is out of range for set "main" (valid: 0...2 or -3...-1)"#)
        #expect(TabStoreError(.insertionIndexOutOfRange(index: 7, count: 3, set: "main")).description
            == #"insertion index 7 is out of range for set "main" (valid: 0...3 or -4...-1)"#)
        #expect(TabStoreError(.offsetOutOfRange(offset: 7, count: 3, set: "main")).description
            == #"offset 7 is out of range for set "main" (valid: 0...2)"#)
        #expect(TabStoreError(.insertionOffsetOutOfRange(offset: 7, count: 3, set: "main")).description
            == #"insertion offset 7 is out of range for set "main" (valid: 0...3)"#)
        #expect(TabStoreError(.invalidTitle(title: "a\nb", problem: .controlCharacter(scalar: 10))).description
            == #"invalid title "a\nb": it contains the control character U+000A"#)
        #expect(TabStoreError(.schemaTooNew(path: "/t.sqlite", found: 9, supported: 2)).description
            == "database /t.sqlite has schema version 9, newer than this tabstore supports (2); upgrade tabstore")
    }

    /// `TabRef.readsAsIndex` is the rule a typed tab is read by: what it calls an index
    /// selects by position (or is out of range), anything else is looked up as a title.
    @Test(arguments: [
        ("0", true), ("-1", true), ("007", true), ("-0", true), ("99999999999999999999", true), ("5", true),
        ("", false), ("-", false), ("--1", false), ("+1", false), (" 1", false), ("1a", false), ("\u{661}", false),
    ])
    func aTypedTabIsAnIndexExactlyWhenReadsAsIndexSaysSo(text: String, isIndex: Bool) throws {
        #expect(TabRef.readsAsIndex(text) == isIndex)
        let store = try makeStore(.sqlite)
        let outcome: String
        do {
            outcome = "selected \(try store.select(.userInput(text), in: "store-detail").selectedIndex)"
        } catch {
            outcome = error.code.rawValue
        }
        let expected = switch text {
        case "0", "-0": "selected 0"
        case "-1": "selected 2"
        case "007", "5": "indexOutOfRange"
        case "99999999999999999999": "indexTextOutOfRange"
        default: "tabNotFound"
        }
        #expect(outcome == expected)
    }
}
