import Testing
import TabStoreTestSupport
@testable import TabStoreKit

/// Titles and payloads are stored exactly as given: an edit to text that Swift's `==`
/// calls equal but whose bytes differ (a precomposed letter, or a letter and its
/// combining mark) is a change, stored and reported as one, by every call that writes
/// text; and `Tab` values compare the same way.
@Suite struct ExactTextTests {
    /// Each row spells one text in bytes that differ: Swift's `==` equates them.
    static let spellings = [["Caf\u{E9}", "Cafe\u{301}"], ["\u{FC}", "u\u{308}"], ["\u{C5}", "A\u{30A}", "\u{212B}"]]

    /// The tab as stored, in bytes: its title, then each payload key and value, by key bytes.
    private func bytes(_ tab: Tab) -> [[UInt8]] {
        let pairs = tab.payload.map { (Array($0.key.utf8), Array($0.value.utf8)) }.sorted { $0.0.lexicographicallyPrecedes($1.0) }
        return [Array(tab.title.utf8)] + pairs.flatMap { [$0.0, $0.1] }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func everyEditOfTextIsStoredByteForByte(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        func spelling() -> String {
            let row = Self.spellings[random.below(Self.spellings.count)]
            return row[random.below(row.count)]
        }
        let store = try TabStore.inMemory()
        try store.add(["start"], to: "s", creatingSet: true)
        let id = try store.tabSet(named: "s").tabs[0].id
        // What the tab must hold: the last text written, byte for byte.
        var expected = Tab(id: id, title: "start", isSelected: true)
        for round in 0..<60 {
            switch random.below(3) {
            case 0:
                let payload = [spelling(): spelling()]
                let event = try store.setPayload(payload, for: .id(id), in: "s").event
                // A change exactly when some byte differs.
                #expect((event != nil) == !samePayload(expected.payload, payload), "round \(round)")
                expected = Tab(id: id, title: expected.title, isSelected: true, payload: payload)
            case 1:
                let title = spelling()
                if sameBytes(title, expected.title) { continue }
                try store.rename(.id(id), to: title, in: "s")
                expected = Tab(id: id, title: title, isSelected: true, payload: expected.payload)
            default:
                // The same tab, title and selection, maybe other bytes in the payload: an
                // import that holds exactly the stored set is skipped, any other is written.
                let payload = [spelling(): spelling()]
                let entry = TabStoreDocument.Entry(name: "s", selectedIndex: 0, tabs: [expected.title], ids: [id], payloads: [payload])
                try store.importDocument(TabStoreDocument(sets: [entry]), replace: true)
                expected = Tab(id: id, title: expected.title, isSelected: true, payload: payload)
            }
            let stored = try store.tabSet(named: "s").tabs[0]
            #expect(bytes(stored) == bytes(expected), "round \(round)")
            #expect(stored == expected, "round \(round)")
        }
    }

    @Test func tabsAreEqualExactlyWhenTheirBytesAre() {
        let id = TabID()
        for row in Self.spellings {
            for first in row {
                for second in row {
                    let same = sameBytes(first, second)
                    #expect((Tab(id: id, title: first, isSelected: false) == Tab(id: id, title: second, isSelected: false)) == same)
                    #expect((Tab(id: id, title: "t", isSelected: false, payload: [first: "v"]) == Tab(id: id, title: "t", isSelected: false, payload: [second: "v"])) == same)
                    #expect((Tab(id: id, title: "t", isSelected: false, payload: ["k": first]) == Tab(id: id, title: "t", isSelected: false, payload: ["k": second])) == same)
                }
            }
        }
    }
}
