import Testing
@testable import TabStoreKit

@Suite struct ClosedTabsTests {
    @Test func reopenPutsTheLastClosedTabBackWhereItWasAndSelected() throws {
        let store = try TabStore.inMemory()
        try store.add(["A", "B", "C"], to: "main")
        try store.select(.title("B"), in: "main")
        try store.remove([.title("B")], from: "main")
        #expect(try picture(store.reopen(in: "main")) == ["A", "*B", "C"])
        #expect(try store.closedTabs(in: "main") == [])
    }

    @Test func reopenClampsToTheEndAndGoesMostRecentFirst() throws {
        let store = try TabStore.inMemory()
        try store.add(["A", "B", "C", "D"], to: "main")
        try store.remove([.title("D")], from: "main")
        try store.remove([.title("A")], from: "main")
        // A was selected when removed, so B was when the last two went.
        try store.remove([.index(0), .index(1)], from: "main")
        #expect(try store.closedTabs(in: "main") == ["C", "B", "A", "D"])
        #expect(try picture(store.reopen(in: "main")) == ["*C"])
        #expect(try picture(store.reopen(in: "main")) == ["*B", "C"])
        #expect(try picture(store.reopen(in: "main")) == ["*A", "B", "C"])
        #expect(try picture(store.reopen(in: "main")) == ["*A", "B", "C", "D"])
        #expect(thrownError { () throws(TabStoreError) in try store.reopen(in: "main") } == .noClosedTabs(set: "main"))
    }

    @Test func historyIsBounded() throws {
        let store = try TabStore(path: ":memory:", options: .init(closedTabLimit: 3))
        try store.add((0..<6).map { "t\($0)" }, to: "main")
        for _ in 0..<5 { try store.remove([.index(0)], from: "main") }
        #expect(try store.closedTabs(in: "main") == ["t4", "t3", "t2"])
    }

    @Test func reopeningATitleThatCameBackFails() throws {
        let store = try TabStore.inMemory()
        try store.add(["A", "B"], to: "main")
        try store.remove([.title("B")], from: "main")
        try store.add(["B"], to: "main")
        let before = try store.tabSet(named: "main")
        #expect(thrownError { () throws(TabStoreError) in try store.reopen(in: "main") } == .duplicateTitle(title: "B", set: "main"))
        #expect(try store.tabSet(named: "main") == before)
        #expect(try store.closedTabs(in: "main") == ["B"])
    }
}
