import Foundation
import Testing
@testable import TabStoreCLI
import TabStoreKit

/// The text of an export file: `TabStoreDocument` read and written as JSON by the CLI.
@Suite struct DocumentJSONTests {
    @Test func aDocumentRoundTripsThroughItsJSON() throws {
        let document = TabStoreDocument(sets: [
            .init(name: "a", selectedIndex: nil, tabs: []),
            .init(name: "b", selectedIndex: 2, tabs: ["홈", "😀", "1"]),
        ])
        #expect(try TabStoreDocument(json: Array(document.json().utf8)) == document)
        #expect(try TabStoreDocument(json: Array(document.json(pretty: false).utf8)) == document)
    }

    @Test func exportedJSONHasTheDocumentedShape() throws {
        let store = try TabStore.inMemory()
        try store.add(["Home", "Reviews"], to: "main", creatingSet: true)
        try store.setPayload(["icon": "house", "b": "2"], for: 0, in: "main")
        let ids = try store.tabSet(named: "main").tabs.map(\.id.uuidString)
        #expect(try store.export(["main"]).json() == """
            {
              "format": "tabstore",
              "version": 2,
              "sets": [
                {
                  "name": "main",
                  "selectedIndex": 0,
                  "tabs": [
                    "Home",
                    "Reviews"
                  ],
                  "ids": [
                    "\(ids[0])",
                    "\(ids[1])"
                  ],
                  "payloads": [
                    {
                      "b": "2",
                      "icon": "house"
                    },
                    {}
                  ]
                }
              ]
            }
            """)
    }

    @Test func aByteOrderMarkIsAccepted() throws {
        let json = #"{"format":"tabstore","version":1,"sets":[{"name":"a","selectedIndex":0,"tabs":["x"]}]}"#
        let document = try TabStoreDocument(json: [0xEF, 0xBB, 0xBF] + Array(json.utf8))
        #expect(document == TabStoreDocument(sets: [.init(name: "a", selectedIndex: 0, tabs: ["x"])]))
    }

    /// The CLI's text and `Codable` with Foundation's coder are one format: each reads the other.
    @Test func theCLIFormatAndJSONEncoderReadEachOther() throws {
        let document = TabStoreDocument(sets: [
            .init(name: "main", selectedIndex: 1, tabs: ["Home", "\"quoted\" 홈"]),
            .init(name: "empty", selectedIndex: nil, tabs: []),
        ])
        #expect(try JSONDecoder().decode(TabStoreDocument.self, from: Data(document.json().utf8)) == document)
        #expect(try TabStoreDocument(json: Array(JSONEncoder().encode(document))) == document)
    }

    @Test(arguments: [
        ("[]", "the document must be an object, not an array"),
        (#"{"format":"other","version":1,"sets":[]}"#, #""format" must be "tabstore""#),
        (#"{"format":"tabstore","version":3,"sets":[]}"#, #""version" 3 is from a newer tabstore (this one reads 1 or 2); upgrade tabstore"#),
        (#"{"format":"tabstore","version":0,"sets":[]}"#, #""version" must be 1 or 2"#),
        (#"{"format":"tabstore","version":1}"#, #"the document: missing "sets""#),
        (#"{"format":"tabstore","version":1,"sets":[],"x":1}"#, #"the document: unknown key "x""#),
        (#"{"format":"tabstore","version":1,"sets":{}}"#, #""sets" must be an array"#),
        (#"{"format":"tabstore","version":1,"sets":[{"name":"a","selectedIndex":2,"tabs":["x","y"]}]}"#,
         "sets[0].selectedIndex must be an index in 0...1"),
        (#"{"format":"tabstore","version":1,"sets":[{"name":"a","selectedIndex":0,"tabs":[]}]}"#,
         "sets[0].selectedIndex must be null (the set has no tabs)"),
        // Integers too large for Int: out of range, not "not a number".
        (#"{"format":"tabstore","version":1,"sets":[{"name":"a","selectedIndex":99999999999999999999,"tabs":["x","y"]}]}"#,
         "sets[0].selectedIndex must be an index in 0...1"),
        (#"{"format":"tabstore","version":1,"sets":[{"name":"a","selectedIndex":-9223372036854775809,"tabs":["x"]}]}"#,
         "sets[0].selectedIndex must be an index in 0...0"),
        (#"{"format":"tabstore","version":1,"sets":[{"name":"a","selectedIndex":1.5,"tabs":["x"]}]}"#,
         "sets[0].selectedIndex must be an integer or null, not a number"),
        (#"{"format":"tabstore","version":1,"sets":[{"name":"a","selectedIndex":null,"tabs":["x"]}]}"#,
         "sets[0].selectedIndex must be an index in 0...0"),
        (#"{"format":"tabstore","version":1,"sets":[{"name":"a","selectedIndex":0,"tabs":["x","x"]}]}"#,
         #"sets[0].tabs[1]: title "x" appears twice"#),
        (#"{"format":"tabstore","version":1,"sets":[{"name":"a","selectedIndex":0,"tabs":[1]}]}"#,
         "sets[0].tabs[0] must be a string, not a number"),
        (#"{"format":"tabstore","version":1,"sets":[{"name":"a","selectedIndex":0,"tabs":["a\nb"]}]}"#,
         "sets[0].tabs[0]: invalid title \"a\nb\": it contains the control character U+000A"),
        (#"{"format":"tabstore","version":1,"sets":[{"name":"","selectedIndex":null,"tabs":[]}]}"#,
         #"sets[0]: invalid set name "": it is empty"#),
        (#"{"format":"tabstore","version":1,"sets":[{"name":"a","selectedIndex":null,"tabs":[]},{"name":"a","selectedIndex":null,"tabs":[]}]}"#,
         #"sets[1]: set "a" appears twice"#),
        (#"{"format":"tabstore","version":1,"sets":[{"name":" ","selectedIndex":null,"tabs":[]}]}"#,
         #"sets[0]: invalid set name " ": it has no visible character"#),
        (#"{"format":"tabstore""#, "not valid JSON at byte 20: unexpected end of input"),
    ])
    func malformedDocumentsAreRefusedWithTheirPlace(json: String, reason: String) {
        #expect(readError(json) == TabStoreError(.invalidDocument(reason: reason)))
    }

    /// A value that is not an integer or null is a problem of the JSON, named as such.
    @Test func aSelectedIndexOfAnotherTypeIsRefused() {
        #expect(readError(#"{"format":"tabstore","version":1,"sets":[{"name":"a","selectedIndex":"0","tabs":["x"]}]}"#)
            == TabStoreError(.invalidDocument(reason: "sets[0].selectedIndex must be an integer or null, not a string")))
    }

    private func readError(_ json: String) -> TabStoreError? {
        do {
            _ = try TabStoreDocument(json: Array(json.utf8))
            return nil
        } catch {
            return error
        }
    }
}
