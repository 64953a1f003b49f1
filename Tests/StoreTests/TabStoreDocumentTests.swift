import Foundation
import Testing
@testable import TabStoreKit

@Suite struct TabStoreDocumentTests {
    @Test(arguments: StoreBackend.allCases)
    func exportThenImportWithReplaceRoundTrips(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.add(["홈", "😀", "1"], to: "b", creatingSet: true)
        try store.select(.index(2), in: "b")
        try store.add([], to: "a", creatingSet: true)
        let document = try store.export()
        #expect(document.sets == [
            .init(name: "a", selectedIndex: nil, tabs: [], ids: []),
            .init(name: "b", selectedIndex: 2, tabs: ["홈", "😀", "1"], ids: try store.tabSet(named: "b").tabs.map(\.id)),
        ])
        let reread = document
        let revision = try store.tabSet(named: "b").revision
        // Importing what is stored writes nothing; a changed selection is written.
        #expect(try store.importDocument(reread, replace: true) == 0)
        #expect(try store.tabSet(named: "b").revision == revision)
        var changed = reread
        changed.sets[1].selectedIndex = 0
        #expect(try store.importDocument(changed, replace: true) == 1)
        #expect(try store.export() == changed)
        #expect(try store.tabSet(named: "b").revision == revision + 1)
    }

    @Test(arguments: StoreBackend.allCases)
    func importIntoAnExistingSetNeedsReplaceAndWritesNothingWithout(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.add(["x"], to: "existing", creatingSet: true)
        let document = TabStoreDocument(sets: [
            .init(name: "new", selectedIndex: 0, tabs: ["n"]),
            .init(name: "existing", selectedIndex: 1, tabs: ["p", "q"]),
        ])
        #expect(thrownError { () throws(TabStoreError) in try store.importDocument(document) } == TabStoreError(.setAlreadyExists(set: "existing")))
        #expect(try store.tabSets().map(\.name) == ["existing"])
        try store.importDocument(document, replace: true)
        #expect(try picture(store.tabSet(named: "existing")) == ["p", "*q"])
        #expect(try picture(store.tabSet(named: "new")) == ["*n"])
    }

    @Test(arguments: StoreBackend.allCases)
    func replacingWithAnIdenticalDocumentChangesNothing(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.add(["a", "b"], to: "one", creatingSet: true)
        try store.select(.index(1), in: "one")
        try store.add([], to: "empty", creatingSet: true)
        let document = try store.export()
        let history = try store.history(of: "one")
        #expect(try store.importDocument(document, replace: true) == 0)
        #expect(try store.history(of: "one") == history)
        #expect(try store.tabSets().map(\.revision) == [1, 2])
        // One set that differs is written; the identical one is not.
        var changed = document
        changed.sets[1].selectedIndex = 0
        #expect(try store.importDocument(changed, replace: true) == 1)
        #expect(try store.tabSets().map(\.revision) == [1, 3])
    }

    @Test(arguments: StoreBackend.allCases)
    func aSetCreatedByImportIsJournaledAsAdded(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.importDocument(TabStoreDocument(sets: [
            .init(name: "first", selectedIndex: 0, tabs: ["a", "b"]),
            .init(name: "third", selectedIndex: 2, tabs: ["a", "b", "c"]),
            .init(name: "none", selectedIndex: nil, tabs: []),
        ]))
        #expect(try store.history(of: "first").map(\.event) == [.added(titles: ["a", "b"], index: 0)])
        #expect(try store.history(of: "third").map(\.event.ignoringIDs) == [
            .selectionChanged([TabUpdate(index: 0, tab: Tab(id: .unknown, title: "a", isSelected: false)), TabUpdate(index: 2, tab: Tab(id: .unknown, title: "c", isSelected: true))]),
            .added(titles: ["a", "b", "c"], index: 0),
        ])
        #expect(try picture(store.tabSet(named: "third")) == ["a", "b", "*c"])
        #expect(try store.history(of: "none").map(\.event) == [.added(titles: [], index: 0)])
    }

    @Test(arguments: StoreBackend.allCases)
    func exportOfAMissingSetFails(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        #expect(thrownError { () throws(TabStoreError) in try store.export(["nope"]) } == TabStoreError(.setNotFound(set: "nope")))
    }

    static let sample = TabStoreDocument(sets: [
        .init(name: "main", selectedIndex: 1, tabs: ["Home", "리뷰"]),
        .init(name: "empty", selectedIndex: nil, tabs: []),
    ])

    /// What `tabstore export --json` prints for `sample` (the CLI's format, `ExportImportTests`).
    static let cliText = #"{"format":"tabstore","version":2,"sets":[{"name":"main","selectedIndex":1,"tabs":["Home","리뷰"]},{"name":"empty","selectedIndex":null,"tabs":[]}]}"#

    @Test func jsonEncoderWritesTheCLIFormatAndJSONDecoderReadsIt() throws {
        let encoded = try JSONEncoder().encode(Self.sample)
        let asObjects = try JSONSerialization.jsonObject(with: encoded) as? NSDictionary
        let cliObjects = try JSONSerialization.jsonObject(with: Data(Self.cliText.utf8)) as? NSDictionary
        #expect(asObjects != nil && asObjects == cliObjects)
        // `selectedIndex` is written as null, not left out, exactly as the CLI writes it.
        #expect(String(decoding: encoded, as: UTF8.self).contains(#""selectedIndex":null"#))
        #expect(try JSONDecoder().decode(TabStoreDocument.self, from: Data(Self.cliText.utf8)) == Self.sample)
        #expect(try JSONDecoder().decode(TabStoreDocument.self, from: encoded) == Self.sample)
    }

    @Test func propertyListEncoderRoundTripsWithTheSameKeys() throws {
        for format in [PropertyListSerialization.PropertyListFormat.binary, .xml] {
            let encoder = PropertyListEncoder()
            encoder.outputFormat = format
            let encoded = try encoder.encode(Self.sample)
            #expect(try PropertyListDecoder().decode(TabStoreDocument.self, from: encoded) == Self.sample)
            let plist = try #require(try PropertyListSerialization.propertyList(from: encoded, format: nil) as? [String: Any])
            #expect(Set(plist.keys) == ["format", "version", "sets"])
            #expect(plist["format"] as? String == "tabstore")
            #expect(plist["version"] as? Int == 2)
            let sets = try #require(plist["sets"] as? [[String: Any]])
            #expect(sets.map { Set($0.keys) } == [["name", "selectedIndex", "tabs"], ["name", "selectedIndex", "tabs"]])
            #expect(sets.first?["tabs"] as? [String] == ["Home", "리뷰"])
        }
    }

    @Test(arguments: [
        (#"{"format":"other","version":1,"sets":[]}"#, #""format" must be "tabstore""#),
        (#"{"format":"tabstore","version":3,"sets":[]}"#, #""version" must be 1 or 2"#),
    ])
    func decodingRefusesAnotherFormatOrVersion(json: String, reason: String) {
        do {
            _ = try JSONDecoder().decode(TabStoreDocument.self, from: Data(json.utf8))
            Issue.record("decoded \(json)")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.debugDescription == reason)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    /// Content is checked by the library, whoever made the document: an app's decoded
    /// document gets the same checks as an imported file, before anything is written.
    @Test(arguments: StoreBackend.allCases, [
        (TabStoreDocument.Entry(name: "a", selectedIndex: 2, tabs: ["x", "y"]), "sets[1].selectedIndex must be an index in 0...1"),
        (.init(name: "a", selectedIndex: 0, tabs: []), "sets[1].selectedIndex must be null (the set has no tabs)"),
        (.init(name: "a", selectedIndex: nil, tabs: ["x"]), "sets[1].selectedIndex must be an index in 0...0"),
        (.init(name: "a", selectedIndex: 0, tabs: ["x", "x"]), #"sets[1].tabs[1]: title "x" appears twice"#),
        (.init(name: "a", selectedIndex: 0, tabs: ["a\nb"]), "sets[1].tabs[0]: invalid title \"a\nb\": it contains the control character U+000A"),
        (.init(name: "", selectedIndex: nil, tabs: []), #"sets[1]: invalid set name "": it is empty"#),
        (.init(name: " ", selectedIndex: nil, tabs: []), #"sets[1]: invalid set name " ": it has no visible character"#),
        (.init(name: "ok", selectedIndex: nil, tabs: []), #"sets[1]: set "ok" appears twice"#),
    ])
    func importChecksTheContentAndWritesNothing(backend: StoreBackend, example: (TabStoreDocument.Entry, String)) throws {
        let (entry, reason) = example
        let document = TabStoreDocument(sets: [.init(name: "ok", selectedIndex: nil, tabs: []), entry])
        #expect(thrownError { () throws(TabStoreError) in try document.validate() } == TabStoreError(.invalidDocument(reason: reason)))
        let store = try backend.makeStore()
        #expect(thrownError { () throws(TabStoreError) in try store.importDocument(document, replace: true) }
            == TabStoreError(.invalidDocument(reason: reason)))
        #expect(try store.tabSets().isEmpty)
    }
}
