import Testing
@testable import TabStoreKit

@Suite struct ClosedTabsTests {
    @Test(arguments: StoreBackend.allCases)
    func reopenPutsTheLastClosedTabBackWhereItWasAndSelected(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.add(["A", "B", "C"], to: "main", creatingSet: true)
        try store.select(.title("B"), in: "main")
        try store.remove([.title("B")], from: "main")
        #expect(try picture(store.reopen(in: "main")) == ["A", "*B", "C"])
        #expect(try store.closedTabs(in: "main") == [])
    }

    @Test(arguments: StoreBackend.allCases)
    func reopenClampsToTheEndAndGoesMostRecentFirst(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.add(["A", "B", "C", "D"], to: "main", creatingSet: true)
        try store.remove([.title("D")], from: "main")
        try store.remove([.title("A")], from: "main")
        // A was selected when removed, so B was when the last two went.
        try store.remove([.index(0), .index(1)], from: "main")
        #expect(try store.closedTabs(in: "main") == ["B", "C", "A", "D"])
        #expect(try picture(store.reopen(in: "main")) == ["*B"])
        #expect(try picture(store.reopen(in: "main")) == ["*B", "C"])
        #expect(try picture(store.reopen(in: "main")) == ["*A", "B", "C"])
        #expect(try picture(store.reopen(in: "main")) == ["*A", "B", "C", "D"])
        #expect(thrownError { () throws(TabStoreError) in try store.reopen(in: "main") } == TabStoreError(.noClosedTabs(set: "main")))
    }

    @Test(arguments: StoreBackend.allCases)
    func historyIsBounded(backend: StoreBackend) throws {
        let store = try backend.makeStore(options: .init(closedTabLimit: 3))
        try store.add((0..<6).map { "t\($0)" }, to: "main", creatingSet: true)
        for _ in 0..<5 { try store.remove([.index(0)], from: "main") }
        #expect(try store.closedTabs(in: "main") == ["t4", "t3", "t2"])
    }

    @Test(arguments: StoreBackend.allCases)
    func reopeningEveryTabOfABatchOneByOneRestoresTheSet(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.add(["A", "B", "C", "D"], to: "r", creatingSet: true)
        try store.remove([.title("A"), .title("B")], from: "r")
        #expect(try store.closedTabs(in: "r") == ["A", "B"])
        #expect(try picture(store.reopen(in: "r")) == ["*A", "C", "D"])
        #expect(try picture(store.reopen(in: "r")) == ["*A", "B", "C", "D"])
    }

    @Test(arguments: StoreBackend.allCases, [[0, 2, 4], [1, 2], [4, 0], [0, 1, 2, 3, 4], [3]])
    func aBatchComesBackExactlyWithItsSelection(backend: StoreBackend, indices: [Int]) throws {
        let store = try backend.makeStore()
        try store.add(["A", "B", "C", "D", "E"], to: "r", creatingSet: true)
        try store.select(.index(2), in: "r")
        let before = picture(try store.tabSet(named: "r"))
        try store.remove(indices.map(TabRef.index), from: "r")
        for _ in indices { try store.reopen(in: "r") }
        #expect(picture(try store.tabSet(named: "r")) == before)
    }

    @Test(arguments: StoreBackend.allCases)
    func aClosedTabWhoseTitleCameBackIsDroppedAndTheNextReopens(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.add(["A", "B", "C"], to: "x", creatingSet: true)
        try store.remove([.title("A")], from: "x")
        try store.remove([.title("B")], from: "x")
        try store.add(["B"], to: "x", creatingSet: true)
        #expect(try store.closedTabs(in: "x") == ["A"])
        // A was selected when it was removed.
        #expect(try picture(store.reopen(in: "x")) == ["*A", "C", "B"])
        #expect(thrownError { () throws(TabStoreError) in try store.reopen(in: "x") } == TabStoreError(.noClosedTabs(set: "x")))
    }

    @Test(arguments: StoreBackend.allCases)
    func aTitleBroughtBackByRenameOrReplaceIsDroppedToo(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.add(["A", "B", "C"], to: "x", creatingSet: true)
        try store.remove([.title("A"), .title("B")], from: "x")
        try store.rename(.title("C"), to: "B", in: "x")
        #expect(try store.closedTabs(in: "x") == ["A"])
        try store.replaceTabs(of: "x", with: ["A", "B"])
        #expect(try store.closedTabs(in: "x") == [])
    }
}
