import Foundation
import Testing
import TabStoreKit

/// Payloads, edits that return the set, and what an app needs on day one.
@Suite struct AppConvenienceTests {
    /// A store of `backend` with the set "main": A (selected), B, C, D, E.
    private func makeStore(_ backend: StoreBackend) throws -> TabStore {
        let store = try backend.makeStore()
        try store.add(["A", "B", "C", "D", "E"], to: "main", creatingSet: true)
        return store
    }

    @Test(arguments: StoreBackend.allCases)
    func payloadsAreSetOnAddAndBySetPayloadAndBounded(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        try store.add(["F"], to: "main", payload: ["route": "/f", "icon": "star"])
        #expect(try store.tabSet(named: "main").tabs.last?.payload == ["route": "/f", "icon": "star"])
        let edit = try store.setPayload(["badge": "3"], for: "B", in: "main")
        #expect(edit.tabs[1].payload == ["badge": "3"] && edit.revision == 3)
        #expect(edit.event.ignoringIDs == .payloadChanged(TabUpdate(index: 1, tab: Tab(id: .unknown, title: "B", isSelected: false))))
        // The same payload again changes nothing.
        #expect(try store.setPayload(["badge": "3"], for: 1, in: "main").event == nil)
        // Exactly at the limit is fine; one byte over is refused, and nothing changes.
        let full = ["k": String(repeating: "x", count: TabStore.payloadLimit - 1)]
        try store.setPayload(full, for: "C", in: "main")
        let over = ["k": String(repeating: "x", count: TabStore.payloadLimit)]
        let error = thrownError { () throws(TabStoreError) in try store.setPayload(over, for: "C", in: "main") }
        #expect(error == TabStoreError(.payloadTooLarge(bytes: 4097, limit: 4096)))
        #expect(error?.description == "tab data of 4097 bytes is over the limit of 4096 bytes (keys and values, UTF-8)")
        #expect(thrownError { () throws(TabStoreError) in try store.add(["G"], to: "main", payload: over) } == TabStoreError(.payloadTooLarge(bytes: 4097, limit: 4096)))
        #expect(thrownError { () throws(TabStoreError) in try store.setPayload(["": "x"], for: "C", in: "main") } == TabStoreError(.emptyPayloadKey))
        #expect(try store.tabSet(named: "main").tabs[2].payload == full)
        // Any text survives the stored form: separators, digits, colons, emoji.
        let odd = ["3:a": "1:b\u{1F}", "홈": "😀", "k": ""]
        try store.setPayload(odd, for: "D", in: "main")
        #expect(try store.tabSet(named: "main").tabs[3].payload == odd)
    }

    @Test(arguments: StoreBackend.allCases)
    func payloadsSurviveMoveRenameRemoveAndReopen(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        try store.setPayload(["route": "/b"], for: "B", in: "main")
        try store.move("B", to: -1, in: "main")
        try store.rename("B", to: "Bee", in: "main")
        try store.remove(["Bee", "A"], from: "main")
        try store.reopen(in: "main")
        try store.reopen(in: "main")
        #expect(try store.tabSet(named: "main").tabs.first { $0.title == "Bee" }?.payload == ["route": "/b"])
    }

    @Test(arguments: StoreBackend.allCases)
    func selectReturnsTheSetAsItNowStands(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        let change = try store.select(2, in: "main")
        #expect(change.set == (try store.tabSet(named: "main")))
        #expect(change.set.selectedIndex == 2 && change.set.revision == change.revision)
        let again = try store.select("C", in: "main")
        #expect(again.isReselection && again.set == change.set)
        #expect(try store.renameSet("main", to: "other").set.name == "other")
    }

    @Test(arguments: StoreBackend.allCases)
    func addRefusesAMissingSetUnlessAsked(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        #expect(thrownError { () throws(TabStoreError) in try store.add(["x"], to: "mian") } == TabStoreError(.setNotFound(set: "mian")))
        #expect(try store.tabSets().map(\.name) == ["main"])
        let created = try store.createSet("second")
        #expect(created.tabs.isEmpty && created.revision == 1)
        #expect(thrownError { () throws(TabStoreError) in try store.createSet("second") } == TabStoreError(.setAlreadyExists(set: "second")))
        #expect(try store.add(["x"], to: "second").tabs.map(\.title) == ["x"])
        #expect(try store.add(["y"], to: "third", creatingSet: true).tabs.map(\.title) == ["y"])
    }

    /// SwiftUI's `onMove`: the same result as `Array.move(fromOffsets:toOffset:)` would give.
    @Test(arguments: StoreBackend.allCases, [
        ([1], 0, ["B", "A", "C", "D", "E"]),
        ([0], 5, ["B", "C", "D", "E", "A"]),
        ([0], 1, ["A", "B", "C", "D", "E"]),
        ([0, 2], 4, ["B", "D", "A", "C", "E"]),
        ([1, 4], 0, ["B", "E", "A", "C", "D"]),
        ([0, 3, 4], 2, ["B", "A", "D", "E", "C"]),
        ([4, 0], 5, ["B", "C", "D", "A", "E"]),
    ])
    func moveFromOffsetsHasSwiftUIsMeaning(backend: StoreBackend, example: ([Int], Int, [String])) throws {
        let (offsets, destination, expected) = example
        let store = try makeStore(backend)
        let selectedID = try store.tabSet(named: "main").tabs[0].id
        let edit = try store.move(fromOffsets: offsets, toOffset: destination, in: "main")
        #expect(edit.tabs.map(\.title) == expected)
        #expect(edit.selectedTab?.id == selectedID)
        #expect(try store.tabSet(named: "main") == edit.set)
    }

    /// Offsets count from the start only: a negative one is refused like one past the end,
    /// and the sentence names only the offsets the call takes.
    @Test(arguments: StoreBackend.allCases)
    func moveFromOffsetsRefusesOffsetsOutsideTheSet(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        try store.createSet("empty")
        let cases: [(offsets: [Int], destination: Int, set: String, error: TabStoreError, message: String)] = [
            ([5], 0, "main", TabStoreError(.offsetOutOfRange(offset: 5, count: 5, set: "main")),
             #"offset 5 is out of range for set "main" (valid: 0...4)"#),
            ([-1], 0, "main", TabStoreError(.offsetOutOfRange(offset: -1, count: 5, set: "main")),
             #"offset -1 is out of range for set "main" (valid: 0...4)"#),
            ([2, -3, 9], 0, "main", TabStoreError(.offsetOutOfRange(offset: -3, count: 5, set: "main")),
             #"offset -3 is out of range for set "main" (valid: 0...4)"#),
            ([0], 6, "main", TabStoreError(.insertionOffsetOutOfRange(offset: 6, count: 5, set: "main")),
             #"insertion offset 6 is out of range for set "main" (valid: 0...5)"#),
            ([0], -1, "main", TabStoreError(.insertionOffsetOutOfRange(offset: -1, count: 5, set: "main")),
             #"insertion offset -1 is out of range for set "main" (valid: 0...5)"#),
            ([0], 0, "empty", TabStoreError(.offsetOutOfRange(offset: 0, count: 0, set: "empty")),
             #"offset 0 is out of range: set "empty" has no tabs"#),
            ([], 1, "empty", TabStoreError(.insertionOffsetOutOfRange(offset: 1, count: 0, set: "empty")),
             #"insertion offset 1 is out of range: set "empty" has no tabs (valid: 0)"#),
        ]
        for (offsets, destination, set, error, message) in cases {
            let thrown = thrownError { () throws(TabStoreError) in try store.move(fromOffsets: offsets, toOffset: destination, in: set) }
            #expect(thrown == error)
            #expect(thrown?.description == message)
            #expect(thrown?.isDatabaseProblem == false)
        }
        #expect(try store.tabSet(named: "main").revision == 1)
        #expect(try store.tabSet(named: "empty").revision == 1)
    }

    @Test(arguments: StoreBackend.allCases)
    func valueTypesRoundTripThroughJSONEncoder(backend: StoreBackend) throws {
        let store = try makeStore(backend)
        let change = try store.select(1, in: "main")
        let edit = try store.setPayload(["route": "/b"], for: 1, in: "main")
        func roundTrip<T: Codable & Equatable>(_ value: T) throws -> Bool {
            try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value)) == value
        }
        #expect(try roundTrip(change))
        #expect(try roundTrip(edit))
        #expect(try roundTrip(store.tabSets()))
        #expect(try roundTrip(store.history(of: "main")))
        #expect(try roundTrip(TabRef.id(edit.tabs[0].id)))
        #expect(try roundTrip(TabStoreError(.payloadTooLarge(bytes: 1, limit: 0))))
        #expect(try roundTrip(store.info()))
        // A tab id is coded as its text.
        let id = edit.tabs[0].id
        #expect(String(decoding: try JSONEncoder().encode(id), as: UTF8.self) == "\"\(id.uuidString)\"")
    }

    @Test func literalsAndPublicInitializersMakeFakes() {
        let ref: TabRef = 2
        let titled: TabRef = "Home"
        #expect(ref == .index(2) && titled == .title("Home"))
        let tab = Tab(title: "Home", isSelected: true, payload: ["icon": "house"])
        let set = TabSet(name: "preview", tabs: [tab], revision: 1)
        let summary = TabSetSummary(name: "preview", tabCount: 1, selectedIndex: 0, selectedTitle: "Home", revision: 1)
        let change = SelectionChange(setName: "preview", previousIndex: 0, selectedIndex: 0, selectedTab: tab, updates: [], revision: 1, set: set)
        #expect(change.isReselection && summary.tabCount == set.tabs.count && set.index(of: tab.id) == 0)
    }

    /// On Linux the library has no Foundation: the error's sentence comes from `description`,
    /// which string interpolation uses (on Apple platforms `localizedDescription` too).
    @Test func anErrorPrintsAsTheCLISentence() {
        let error: any Error = TabStoreError(.setNotFound(set: "mian"))
        #expect("\(error)" == "no tab set named \"mian\"")
        #expect(String(describing: error) == "no tab set named \"mian\"")
        #if canImport(Darwin)
        #expect(error.localizedDescription == "no tab set named \"mian\"")
        #endif
    }
}
