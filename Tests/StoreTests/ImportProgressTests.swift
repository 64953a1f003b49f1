import Testing
@testable import TabStoreKit

@Suite struct ImportProgressTests {
    @Test func importReportsEveryTabWrittenAgainstTheDocumentsTotal() throws {
        let store = try TabStore.inMemory()
        let document = TabStoreDocument(sets: [
            .init(name: "a", selectedIndex: 1, tabs: ["x", "y"]),
            .init(name: "empty", selectedIndex: nil, tabs: []),
            .init(name: "b", selectedIndex: 0, tabs: ["홈"]),
        ])
        var reports: [[Int]] = []
        #expect(try store.importDocument(document) { written, total in reports.append([written, total]) } == 3)
        #expect(reports == [[1, 3], [2, 3], [3, 3]])
        #expect(picture(try store.tabSet(named: "a")) == ["x", "*y"])
    }

    /// The rules plan the whole import before anything is written: a refused one has
    /// written no tab to report.
    @Test func aRefusedImportReportsNothingAndWritesNothing() throws {
        let store = try TabStore.inMemory()
        try store.add(["old"], to: "b", creatingSet: true)
        let document = TabStoreDocument(sets: [
            .init(name: "a", selectedIndex: 0, tabs: ["x"]),
            .init(name: "b", selectedIndex: 0, tabs: ["y"]),
        ])
        var reports: [[Int]] = []
        let error = thrownError { () throws(TabStoreError) in try store.importDocument(document) { reports.append([$0, $1]) } }
        #expect(error == TabStoreError(.setAlreadyExists(set: "b")))
        #expect(reports == [])
        #expect(try store.tabSets().map(\.name) == ["b"])
    }
}
