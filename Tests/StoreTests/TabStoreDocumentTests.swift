import Testing
@testable import TabStoreKit

@Suite struct TabStoreDocumentTests {
    @Test func exportThenImportWithReplaceRoundTrips() throws {
        let store = try TabStore.inMemory()
        try store.add(["홈", "😀", "1"], to: "b")
        try store.select(.index(2), in: "b")
        try store.add([], to: "a")
        let document = try store.export()
        #expect(document.sets == [
            .init(name: "a", selectedIndex: nil, tabs: []),
            .init(name: "b", selectedIndex: 2, tabs: ["홈", "😀", "1"]),
        ])
        let reread = try TabStoreDocument(json: Array(document.json().utf8))
        #expect(reread == document)
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

    @Test func exportedJSONHasTheDocumentedShape() throws {
        let store = try TabStore.inMemory()
        try store.add(["Home", "Reviews"], to: "main")
        #expect(try store.export(["main"]).json() == """
            {
              "format": "tabstore",
              "version": 1,
              "sets": [
                {
                  "name": "main",
                  "selectedIndex": 0,
                  "tabs": [
                    "Home",
                    "Reviews"
                  ]
                }
              ]
            }
            """)
    }

    @Test func importIntoAnExistingSetNeedsReplaceAndWritesNothingWithout() throws {
        let store = try TabStore.inMemory()
        try store.add(["x"], to: "existing")
        let document = TabStoreDocument(sets: [
            .init(name: "new", selectedIndex: 0, tabs: ["n"]),
            .init(name: "existing", selectedIndex: 1, tabs: ["p", "q"]),
        ])
        #expect(thrownError { () throws(TabStoreError) in try store.importDocument(document) } == .setAlreadyExists(set: "existing"))
        #expect(try store.tabSets().map(\.name) == ["existing"])
        try store.importDocument(document, replace: true)
        #expect(try picture(store.tabSet(named: "existing")) == ["p", "*q"])
        #expect(try picture(store.tabSet(named: "new")) == ["*n"])
    }

    @Test func replacingWithAnIdenticalDocumentChangesNothing() throws {
        let store = try TabStore.inMemory()
        try store.add(["a", "b"], to: "one")
        try store.select(.index(1), in: "one")
        try store.add([], to: "empty")
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

    @Test func aSetCreatedByImportIsJournaledAsAdded() throws {
        let store = try TabStore.inMemory()
        try store.importDocument(TabStoreDocument(sets: [
            .init(name: "first", selectedIndex: 0, tabs: ["a", "b"]),
            .init(name: "third", selectedIndex: 2, tabs: ["a", "b", "c"]),
            .init(name: "none", selectedIndex: nil, tabs: []),
        ]))
        #expect(try store.history(of: "first").map(\.event) == [.added(titles: ["a", "b"], index: 0)])
        #expect(try store.history(of: "third").map(\.event) == [
            .selectionChanged([TabUpdate(index: 0, tab: Tab(title: "a", isSelected: false)), TabUpdate(index: 2, tab: Tab(title: "c", isSelected: true))]),
            .added(titles: ["a", "b", "c"], index: 0),
        ])
        #expect(try picture(store.tabSet(named: "third")) == ["a", "b", "*c"])
        #expect(try store.history(of: "none").map(\.event) == [.added(titles: [], index: 0)])
    }

    @Test func aByteOrderMarkIsAccepted() throws {
        let json = #"{"format":"tabstore","version":1,"sets":[{"name":"a","selectedIndex":0,"tabs":["x"]}]}"#
        let document = try TabStoreDocument(json: [0xEF, 0xBB, 0xBF] + Array(json.utf8))
        #expect(document == TabStoreDocument(sets: [.init(name: "a", selectedIndex: 0, tabs: ["x"])]))
    }

    @Test func exportOfAMissingSetFails() throws {
        let store = try TabStore.inMemory()
        #expect(thrownError { () throws(TabStoreError) in try store.export(["nope"]) } == .setNotFound(set: "nope"))
    }

    @Test(arguments: [
        ("[]", "the document must be an object, not an array"),
        (#"{"format":"other","version":1,"sets":[]}"#, #""format" must be "tabstore""#),
        (#"{"format":"tabstore","version":2,"sets":[]}"#, #""version" must be 1"#),
        (#"{"format":"tabstore","version":1}"#, #"the document: missing "sets""#),
        (#"{"format":"tabstore","version":1,"sets":[],"x":1}"#, #"the document: unknown key "x""#),
        (#"{"format":"tabstore","version":1,"sets":{}}"#, #""sets" must be an array"#),
        (#"{"format":"tabstore","version":1,"sets":[{"name":"a","selectedIndex":2,"tabs":["x","y"]}]}"#,
         "sets[0].selectedIndex must be an index in 0...1"),
        (#"{"format":"tabstore","version":1,"sets":[{"name":"a","selectedIndex":0,"tabs":[]}]}"#,
         "sets[0].selectedIndex must be null (the set has no tabs)"),
        (#"{"format":"tabstore","version":1,"sets":[{"name":"a","selectedIndex":null,"tabs":["x"]}]}"#,
         "sets[0].selectedIndex must be an index in 0...0"),
        (#"{"format":"tabstore","version":1,"sets":[{"name":"a","selectedIndex":0,"tabs":["x","x"]}]}"#,
         #"sets[0].tabs[1]: title "x" appears twice"#),
        (#"{"format":"tabstore","version":1,"sets":[{"name":"a","selectedIndex":0,"tabs":[1]}]}"#,
         "sets[0].tabs[0] must be a string, not a number"),
        (#"{"format":"tabstore","version":1,"sets":[{"name":"a","selectedIndex":0,"tabs":["a\nb"]}]}"#,
         #"sets[0].tabs[0]: invalid title "a\nb": it contains the control character U+000A"#),
        (#"{"format":"tabstore","version":1,"sets":[{"name":"","selectedIndex":null,"tabs":[]}]}"#,
         #"sets[0]: invalid set name "": it is empty"#),
        (#"{"format":"tabstore","version":1,"sets":[{"name":"a","selectedIndex":null,"tabs":[]},{"name":"a","selectedIndex":null,"tabs":[]}]}"#,
         #"sets[1]: set "a" appears twice"#),
        (#"{"format":"tabstore","version":1,"sets":[{"name":" ","selectedIndex":null,"tabs":[]}]}"#,
         #"sets[0]: invalid set name " ": it has no visible character"#),
        (#"{"format":"tabstore""#, "not valid JSON at byte 20: unexpected end of input"),
    ])
    func malformedDocumentsAreRefusedWithTheirPlace(json: String, reason: String) {
        #expect(thrownError { () throws(TabStoreError) in try TabStoreDocument(json: Array(json.utf8)) }
            == .invalidDocument(reason: reason))
    }
}
