import Testing
@testable import TabStoreKit

/// A revision, once seen for a set name, names one state only: `ifRevision` can never
/// act on a set that was removed and re-created, or renamed onto the name.
@Suite struct RevisionTests {
    @Test(arguments: StoreBackend.allCases)
    func aRecreatedSetNeverReusesARevision(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        #expect(try store.add(["Mail", "Calendar"], to: "s", creatingSet: true).revision == 1)
        try store.removeSet("s")
        #expect(try store.add(["Bank", "Shop"], to: "s", creatingSet: true).revision == 3)
        #expect(thrownError { () throws(TabStoreError) in try store.remove([.index(0)], from: "s", ifRevision: 1) }
            == TabStoreError(.revisionMismatch(set: "s", expected: 1, actual: 3)))
        #expect(try picture(store.tabSet(named: "s")) == ["*Bank", "Shop"])
    }

    @Test(arguments: StoreBackend.allCases)
    func aMissingSetIsAtTheRevisionItsNameReached(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.add(["A"], to: "s", creatingSet: true)
        try store.removeSet("s")
        #expect(thrownError { () throws(TabStoreError) in try store.add(["B"], to: "s", ifRevision: 0, creatingSet: true) }
            == TabStoreError(.missingSetRevision(set: "s", expected: 0, actual: 2)))
        #expect(try store.tabSets() == [])
        #expect(try store.add(["B"], to: "s", ifRevision: 2, creatingSet: true).revision == 3)
    }

    @Test(arguments: StoreBackend.allCases)
    func aSetRenamedOntoAUsedNameGoesAboveEveryRevisionOfBothNames(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.add(["A", "B", "C"], to: "b", creatingSet: true)
        try store.select(.index(2), in: "b")
        try store.remove([.index(0)], from: "b")
        try store.removeSet("b")  // "b" reached revision 4
        try store.add(["X"], to: "a", creatingSet: true)  // "a" at 1
        try store.renameSet("a", to: "b")
        #expect(try store.tabSet(named: "b").revision == 5)
        #expect(thrownError { () throws(TabStoreError) in try store.select(.index(0), in: "b", ifRevision: 1) }
            == TabStoreError(.revisionMismatch(set: "b", expected: 1, actual: 5)))
        // The name left behind is at the revision of the rename too.
        #expect(try store.add(["Y"], to: "a", creatingSet: true).revision == 6)
    }

    @Test(arguments: StoreBackend.allCases)
    func importReplaceAndImportOfANewSetGoOnFromTheName(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.add(["A"], to: "s", creatingSet: true)
        try store.removeSet("s")
        let document = TabStoreDocument(sets: [.init(name: "s", selectedIndex: 0, tabs: ["Z"])])
        try store.importDocument(document)
        #expect(try store.tabSet(named: "s").revision == 3)
        try store.importDocument(TabStoreDocument(sets: [.init(name: "s", selectedIndex: 0, tabs: ["Q"])]), replace: true)
        #expect(try store.tabSet(named: "s").revision == 4)
    }

    @Test(arguments: StoreBackend.allCases)
    func historyIsStrictlyNewestFirstAfterRemoveAndReAdd(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.add(["Mail", "Calendar"], to: "s", creatingSet: true)
        try store.removeSet("s")
        try store.add(["Bank"], to: "s", creatingSet: true)
        try store.add(["Shop"], to: "s", creatingSet: true)
        #expect(try store.history(of: "s").map(\.revision) == [4, 3, 2, 1])
    }

    @Test(arguments: StoreBackend.allCases)
    func historyFollowsARenamedSet(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.add(["A", "B"], to: "a", creatingSet: true)
        try store.select(.index(1), in: "a")
        try store.renameSet("a", to: "b")
        try store.move(.index(0), to: 1, in: "b")
        let history = try store.history(of: "b")
        #expect(history.map(\.event.ignoringIDs) == [
            .moved(title: "A", from: 0, to: 1), .setRenamed(from: "a", to: "b"),
            .selectionChanged([TabUpdate(index: 0, tab: Tab(id: .unknown, title: "A", isSelected: false)), TabUpdate(index: 1, tab: Tab(id: .unknown, title: "B", isSelected: true))]),
            .added(titles: ["A", "B"], index: 0),
        ])
        #expect(history.map(\.revision) == [4, 3, 2, 1])
        // The old name keeps what happened under it, up to the rename.
        #expect(try store.history(of: "a").map(\.revision) == [3, 2, 1])
    }

    /// Once the renamed set is removed, its history is the name's: what happened under
    /// it, and the rename that brought the set to it.
    @Test(arguments: StoreBackend.allCases)
    func theHistoryOfARemovedRenamedSetKeepsItsRename(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.add(["A"], to: "m", creatingSet: true)
        try store.renameSet("m", to: "m2")
        try store.add(["B"], to: "m2")
        try store.removeSet("m2")
        #expect(try store.history(of: "m2").map(\.event.kind) == [.setRemoved, .added, .setRenamed])
        #expect(try store.history(of: "m2").map(\.revision) == [4, 3, 2])
    }

    @Test(arguments: StoreBackend.allCases)
    func aNewSetWithAnOldSetsIdDoesNotInheritItsHistory(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.add(["A"], to: "x", creatingSet: true)
        try store.removeSet("x")
        try store.add(["B"], to: "y", creatingSet: true)  // may get the removed set's row id
        try store.renameSet("y", to: "z")
        #expect(try store.history(of: "z").map(\.event) == [.setRenamed(from: "y", to: "z"), .added(titles: ["B"], index: 0)])
    }

    @Test func messagesSayWhatIsTrue() {
        #expect(TabStoreError(.revisionMismatch(set: "s", expected: 1, actual: 3)).description
            == #"set "s" changed since revision 1 (now 3)"#)
        #expect(TabStoreError(.revisionMismatch(set: "s", expected: 7, actual: 3)).description
            == #"set "s" never reached revision 7 (it is at revision 3)"#)
        #expect(TabStoreError(.revisionMismatch(set: "s", expected: -5, actual: 1)).description
            == #"set "s" was never at revision -5: revisions are not negative (it is at revision 1)"#)
        #expect(TabStoreError(.missingSetRevision(set: "s", expected: 3, actual: 0)).description
            == #"set "s" does not exist, so it is not at revision 3"#)
        #expect(TabStoreError(.missingSetRevision(set: "s", expected: 0, actual: 2)).description
            == #"set "s" does not exist: its name was left at revision 2, not 0"#)
    }

    @Test(arguments: StoreBackend.allCases)
    func aRevisionBeyondTheSetsIsRefused(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.add(["A"], to: "s", creatingSet: true)
        #expect(thrownError { () throws(TabStoreError) in try store.select(.index(0), in: "s", ifRevision: 9) }
            == TabStoreError(.revisionMismatch(set: "s", expected: 9, actual: 1)))
        #expect(thrownError { () throws(TabStoreError) in try store.add(["N"], to: "new", ifRevision: 3, creatingSet: true) }
            == TabStoreError(.missingSetRevision(set: "new", expected: 3, actual: 0)))
    }
}
