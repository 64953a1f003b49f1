import Testing
@testable import TabStoreKit

/// A request that looks up one tab by an index from the start, and nothing else, reads it
/// with the set in one statement: `onlyIndex` says so exactly when `lookups` is that one
/// index and no count is needed, for every way a caller names a tab.
@Suite struct SnapshotRequestTests {
    static let refs: [TabRef] = [
        .index(0), .index(2), .index(-1), .title("2"), .title("Home"), .id(TabID()),
        .userInput("2", asIndex: true), .userInput("2", asIndex: false), .userInput("-1", asIndex: true),
        .userInput("99999999999999999999", asIndex: true), .userInput("Home", asIndex: true), .userInput("0", asIndex: false),
    ]

    @Test(arguments: refs)
    func onlyIndexIsTheOneLookupByIndex(ref: TabRef) {
        var request = SnapshotRequest(setName: "s")
        request.refs = [ref]
        let expected: Int? = if request.lookups.count == 1, case let .index(index) = request.lookups[0], index >= 0, !request.needsTabCount { index } else { nil }
        #expect(request.onlyIndex == expected)
        request.titles = ["Home"]
        #expect(request.onlyIndex == nil)
    }

    /// Refs added one by one (`lookUp`, as a select adds its one) are the refs a list
    /// sets, in order, and read the same way.
    @Test(arguments: 0..<refs.count)
    func refsLookedUpOneByOneAreTheListsRefs(start: Int) {
        for count in 0...3 {
            let list = (0..<count).map { Self.refs[(start + $0) % Self.refs.count] }
            var listed = SnapshotRequest(setName: "s"), lookedUp = SnapshotRequest(setName: "s")
            listed.refs = list
            for ref in list { lookedUp.lookUp(ref) }
            #expect(lookedUp.refs == list && listed.refs == list)
            #expect(lookedUp.onlyIndex == listed.onlyIndex && lookedUp.needsTabCount == listed.needsTabCount)
            #expect(lookedUp.lookups == listed.lookups)
        }
    }

    @Test func theIndexesACallerTypesReadWithTheSet() {
        var request = SnapshotRequest(setName: "s")
        request.refs = [.userInput("3", asIndex: true)]
        #expect(request.onlyIndex == 3)
        request.refs = [.index(3)]
        #expect(request.onlyIndex == 3)
    }
}
