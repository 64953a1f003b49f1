import Testing
@testable import TabStoreKit

@Suite struct TabStoreSelectionTests {
    let store: TabStore

    init() throws {
        store = try TabStore.inMemory()
        try store.add(["Home", "All menu", "Reviews"], to: "store-detail", creatingSet: true)
    }

    @Test func firstTabOfAnEmptySetStartsSelected() throws {
        let set = try store.tabSet(named: "store-detail")
        #expect(picture(set) == ["*Home", "All menu", "Reviews"])
        #expect(set.selectedIndex == 0)
        #expect(set.lastSelectedIndex == 0)
    }

    @Test func selectingAnotherTabReportsOldThenNewPair() throws {
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

    @Test func reselectingIsAnEventButNotAChange() throws {
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

    @Test func negativeIndexCountsFromTheEnd() throws {
        #expect(try store.select(.index(-1), in: "store-detail").selectedTab.title == "Reviews")
        #expect(try store.select(.index(-3), in: "store-detail").selectedTab.title == "Home")
    }

    @Test func titleThatLooksLikeAnIndexIsATitle() throws {
        try store.add(["1", "2"], to: "numbers", creatingSet: true)
        let change = try store.select(.title("2"), in: "numbers")
        #expect(change.selectedIndex == 1)
        #expect(try store.select(.index(0), in: "numbers").selectedTab.title == "1")
    }

    @Test func selectingAChangedTabGrowsTheRevision() throws {
        let before = try store.tabSet(named: "store-detail").revision
        let change = try store.select(.index(1), in: "store-detail")
        #expect(change.revision == before + 1)
        #expect(try store.tabSet(named: "store-detail").revision == before + 1)
    }

    @Test func restoreReadsTheSelectedTab() throws {
        try store.select(.title("Reviews"), in: "store-detail")
        #expect(try store.selectedTab(in: "store-detail").ignoringIDs == TabUpdate(index: 2, tab: Tab(id: .unknown, title: "Reviews", isSelected: true)))
    }

    @Test(arguments: [
        (TabRef.index(3), TabStoreError.indexOutOfRange(index: 3, count: 3, set: "store-detail")),
        (TabRef.index(-4), TabStoreError.indexOutOfRange(index: -4, count: 3, set: "store-detail")),
        (TabRef.title("Nope"), TabStoreError.tabNotFound(title: "Nope", set: "store-detail")),
        (TabRef.title("home"), TabStoreError.tabNotFound(title: "home", set: "store-detail")),
    ])
    func selectingAMissingTabFailsAndChangesNothing(ref: TabRef, expected: TabStoreError) throws {
        let before = try store.tabSet(named: "store-detail")
        #expect(thrownError { () throws(TabStoreError) in try store.select(ref, in: "store-detail") } == expected)
        #expect(try store.tabSet(named: "store-detail") == before)
    }

    @Test func selectInAMissingOrEmptySetFails() throws {
        #expect(thrownError { () throws(TabStoreError) in try store.select(.index(0), in: "nope") } == .setNotFound(set: "nope"))
        try store.add([], to: "empty", creatingSet: true)
        #expect(thrownError { () throws(TabStoreError) in try store.select(.index(0), in: "empty") } == .emptySet(set: "empty"))
        #expect(thrownError { () throws(TabStoreError) in try store.selectedTab(in: "empty") } == .emptySet(set: "empty"))
    }

    @Test func errorsReadAsSentences() {
        #expect(TabStoreError.indexOutOfRange(index: 7, count: 3, set: "main").description
            == #"index 7 is out of range for set "main" (valid: 0...2 or -3...-1)"#)
        #expect(TabStoreError.invalidTitle(title: "a\nb", problem: .controlCharacter(scalar: 10)).description
            == #"invalid title "a\nb": it contains the control character U+000A"#)
        #expect(TabStoreError.schemaTooNew(path: "/t.sqlite", found: 9, supported: 2).description
            == "database /t.sqlite has schema version 9, newer than this tabstore supports (2); upgrade tabstore")
    }
}
