import Testing
@testable import TabStoreKit

/// A request that looks up one tab by an index from the start, and nothing else, reads it
/// with the set in one statement: `onlyIndex` says so exactly when `lookups` is that one
/// index and no count is needed, for every way a caller names a tab.
@Suite struct SnapshotRequestTests {
    static let refs: [TabRef] = [
        .index(0), .index(2), .index(-1), .title("2"), .title("Home"), .id(TabID()),
        .typed("2", asIndex: true), .typed("2", asIndex: false), .typed("-1", asIndex: true),
        .typed("99999999999999999999", asIndex: true), .typed("Home", asIndex: true), .typed("0", asIndex: false),
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

    @Test func theIndexesACallerTypesReadWithTheSet() {
        var request = SnapshotRequest(setName: "s")
        request.refs = [.typed("3", asIndex: true)]
        #expect(request.onlyIndex == 3)
        request.refs = [.index(3)]
        #expect(request.onlyIndex == 3)
    }
}
