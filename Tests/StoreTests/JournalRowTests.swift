import Testing
import TabStoreTestSupport
@testable import TabStoreKit

/// Every event written as a journal row's cells reads back as the same event: random
/// events of every kind, with one tab, two or many, and ids that are real or unknown
/// (a missing id packs as an empty part).
@Suite struct JournalRowTests {
    @Test(arguments: [11, 12, 13] as [UInt64])
    func everyEventReadsBackAsWritten(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let ids = [TabID(), TabID(), TabID.unknown]
        func id() -> TabID { ids[random.below(ids.count)] }
        func title() -> String { ["a", "Tab 1", "é", "x y"][random.below(4)] }
        func update(selected: Bool) -> TabUpdate {
            TabUpdate(index: random.below(20), tab: Tab(id: id(), title: title(), isSelected: selected))
        }
        for step in 0..<400 {
            let event: TabEvent
            switch random.below(11) {
            case 0: event = .added(titles: (0..<random.below(4)).map { _ in title() }, index: random.below(9))
            case 1:
                // Indices distinct, at most one of them the selected tab's.
                let count = 1 + random.below(4)
                let selected = random.below(count + 1)
                event = .removed((0..<count).map { offset in
                    TabUpdate(index: offset * 2, tab: Tab(id: id(), title: title(), isSelected: offset == selected))
                })
            case 2: event = .moved(title: title(), from: random.below(9), to: random.below(9))
            case 3: event = .renamed(index: random.below(9), from: title(), to: title())
            case 4: event = .selectionChanged([update(selected: false), update(selected: true)])
            case 5: event = .reselected(update(selected: true))
            case 6: event = .replaced(tabCount: random.below(9))
            case 7: event = .reopened(update(selected: random.below(2) == 0))
            case 8: event = .setRenamed(from: title(), to: title())
            case 9: event = .setRemoved
            default: event = .payloadChanged(update(selected: random.below(2) == 0))
            }
            let entry = JournalEntry(event: event, setName: "s", set: .id(1), revision: step + 1, timestamp: 1_000 + step)
            let cells = entry.cells(setID: 1)
            #expect(cells.count == JournalColumn.allCases.count)
            let read = JournalRow.change { cells[$0.rawValue] }
            #expect(read == TabChange(setName: "s", revision: step + 1, event: event, timestamp: 1_000 + step), "step \(step): \(event)")
        }
    }
}
