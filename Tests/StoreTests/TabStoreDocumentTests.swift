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
        #expect(try store.importDocument(reread, replace: true) == 2)
        #expect(try store.export() == document)
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
        (#"{"format":"tabstore""#, "not valid JSON at byte 20: unexpected end of input"),
    ])
    func malformedDocumentsAreRefusedWithTheirPlace(json: String, reason: String) {
        #expect(thrownError { () throws(TabStoreError) in try TabStoreDocument(json: Array(json.utf8)) }
            == .invalidDocument(reason: reason))
    }
}
