import Foundation
import Testing
@testable import TabStoreKit

/// Stable tab ids.
@Suite struct TabIDTests {
    @Test func idsAreVersion4UUIDsAndParseInAnyCase() throws {
        let id = TabID()
        #expect(UUID(uuidString: id.uuidString)?.uuidString.lowercased() == id.uuidString)
        #expect(Array(id.uuidString)[14] == "4")
        #expect(TabID("0F8FAD5B-D9CB-469F-A165-70867728950E")?.uuidString == "0f8fad5b-d9cb-469f-a165-70867728950e")
        #expect(TabID("0f8fad5b-d9cb-469f-a165-70867728950") == nil)
        #expect(TabID("0f8fad5b_d9cb-469f-a165-70867728950e") == nil)
        #expect(TabID("0f8fad5b-d9cb-469f-a165-70867728950g") == nil)
        #expect(Set((0..<1000).map { _ in TabID() }).count == 1000)
    }

    /// The id is held as its bits: its text, order, equality and version bits must be
    /// what the canonical text says, for any id and any letter case.
    @Test func anIdIsItsCanonicalTextInEveryRespect() throws {
        var random = SystemRandomNumberGenerator()
        let hexDigits = Array("0123456789abcdef")
        var ids: [TabID] = []
        for round in 0..<2000 {
            // Any 32 hex digits, not only version 4: ids come from other programs' files too.
            let digits = (0..<32).map { _ in hexDigits[Int(random.next() % 16)] }
            var text = ""
            for (offset, digit) in digits.enumerated() {
                if [8, 12, 16, 20].contains(offset) { text += "-" }
                text.append(digit)
            }
            let id = try #require(TabID(text), "round \(round): \(text)")
            #expect(id.uuidString == text)
            #expect(TabID(text.uppercased()) == id)
            #expect(UUID(uuidString: text)?.uuidString.lowercased() == text)
            ids.append(id)
            let made = TabID()
            #expect(Array(made.uuidString)[14] == "4")
            #expect("89ab".contains(Array(made.uuidString)[19]))
            ids.append(made)
        }
        #expect(ids.sorted().map(\.uuidString) == ids.map(\.uuidString).sorted())
        #expect(Set(ids).count == Set(ids.map(\.uuidString)).count)
        #expect(TabID.unknown.uuidString == "00000000-0000-0000-0000-000000000000")
        // Each digit replaced by each byte next to a hex range, or beyond ASCII.
        let canonical = "0f8fad5b-d9cb-469f-a165-70867728950e"
        for (offset, byte) in canonical.utf8.enumerated() where byte != UInt8(ascii: "-") {
            for bad: UInt8 in [0x2F, 0x3A, 0x40, 0x47, 0x60, 0x67, 0x00, 0x20, 0x7F, 0x80, 0xB0, 0xE6] {
                var bytes = Array(canonical.utf8)
                bytes[offset] = bad
                // As a database row holds it (any bytes), and as a string (where a lone byte
                // above 0x7F becomes U+FFFD).
                #expect(bytes.withUnsafeBufferPointer { TabID(utf8: $0) } == nil, "\(bytes)")
                #expect(TabID(String(decoding: bytes, as: UTF8.self)) == nil, "\(bytes)")
            }
        }
        for bad in ["", String(repeating: "0", count: 36), "0f8fad5b-d9cb-469f-a165-70867728950e0", "0f8fad5b-d9cb-469f-a165-7086772895 e", "0f8fad5b-d9cb-469f-a165-70867728950é"] {
            #expect(TabID(bad) == nil, "\(bad)")
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func idsNeverChangeThroughEdits(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        let ids = try store.add(["A", "B", "C", "D"], to: "main", creatingSet: true).tabs.map(\.id)
        func idsByTitle() throws -> [String: TabID] {
            Dictionary(uniqueKeysWithValues: try store.tabSet(named: "main").tabs.map { ($0.title, $0.id) })
        }
        let original = try idsByTitle()
        try store.move(.id(ids[0]), to: -1, in: "main")
        try store.rename(.id(ids[1]), to: "Bee", in: "main")
        try store.remove([.id(ids[2]), .id(ids[3])], from: "main")
        try store.reopen(in: "main")
        try store.reopen(in: "main")
        try store.replaceTabs(of: "main", with: ["C", "A", "New"])
        let after = try idsByTitle()
        #expect(after["A"] == original["A"] && after["C"] == original["C"])
        #expect(after["New"] != nil && !ids.contains(after["New"]!))
        try store.renameSet("main", to: "renamed")
        #expect(try store.tabSet(named: "renamed").tabs.map(\.id) == [original["C"], original["A"], after["New"]])
    }

    @Test(arguments: StoreBackend.allCases)
    func selectByIDAndAMissingIDIsAClearError(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        let tabs = try store.add(["A", "B"], to: "main", creatingSet: true).tabs
        let change = try store.select(.id(tabs[1].id), in: "main")
        #expect(change.selectedIndex == 1 && change.selectedTab.id == tabs[1].id)
        // The event names the tabs by id.
        #expect(change.updates.map(\.tab.id) == [tabs[0].id, tabs[1].id])
        #expect(try store.history(of: "main", limit: 1).first?.event == .selectionChanged(change.updates))
        let missing = TabID("0f8fad5b-d9cb-469f-a165-70867728950e")!
        let error = thrownError { () throws(TabStoreError) in try store.select(.id(missing), in: "main") }
        #expect(error == TabStoreError(.tabIDNotFound(id: missing, set: "main")))
        #expect(error?.description == "no tab with id 0f8fad5b-d9cb-469f-a165-70867728950e in set \"main\"")
    }

    @Test(arguments: StoreBackend.allCases)
    func exportAndImportKeepIdsAndPayloads(backend: StoreBackend) throws {
        let source = try backend.makeStore()
        try source.add(["A", "B"], to: "main", payload: ["route": "/a"], creatingSet: true)
        try source.setPayload([:], for: "B", in: "main")
        let document = try source.export()
        let decoded = try JSONDecoder().decode(TabStoreDocument.self, from: JSONEncoder().encode(document))
        #expect(decoded == document)
        let target = try backend.makeStore()
        try target.importDocument(decoded)
        #expect(try target.tabSet(named: "main").tabs == source.tabSet(named: "main").tabs)
        // Importing it again over itself writes nothing.
        #expect(try target.importDocument(decoded, replace: true) == 0)
        // A version 1 document (no ids) still imports, with fresh ids.
        let old = try JSONDecoder().decode(TabStoreDocument.self, from: Data(#"{"format":"tabstore","version":1,"sets":[{"name":"v1","selectedIndex":0,"tabs":["x"]}]}"#.utf8))
        try target.importDocument(old)
        #expect(try target.tabSet(named: "v1").tabs.first?.id != .unknown)
    }

    @Test(arguments: StoreBackend.allCases)
    func importRefusesAnIDAnotherSetHolds(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        let id = try store.add(["A"], to: "one", creatingSet: true).tabs[0].id
        let document = TabStoreDocument(sets: [.init(name: "two", selectedIndex: 0, tabs: ["Z"], ids: [id])])
        #expect(thrownError { () throws(TabStoreError) in try store.importDocument(document) }
            == TabStoreError(.tabIDInUse(id: id, set: "one", place: "sets[0].ids[0]")))
        #expect(try store.tabSets().map(\.name) == ["one"])
        let twice = TabStoreDocument(sets: [.init(name: "two", selectedIndex: 0, tabs: ["Y", "Z"], ids: [id, id])])
        #expect(thrownError { () throws(TabStoreError) in try twice.validate() }
            == TabStoreError(.invalidDocument(reason: "sets[0].ids[1]: id \(id) appears twice")))
    }
}
