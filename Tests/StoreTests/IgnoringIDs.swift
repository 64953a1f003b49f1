import TabStoreKit

// Events compared by what they say, not by which tab ids the store made up: the
// expected values use `TabID.unknown`, and `ignoringIDs` puts it in the actual ones.
// Tests that check ids themselves are in TabIDTests.
extension TabUpdate {
    var ignoringIDs: TabUpdate {
        TabUpdate(index: index, tab: Tab(id: .unknown, title: tab.title, isSelected: tab.isSelected, payload: tab.payload))
    }
}

extension TabEvent {
    var ignoringIDs: TabEvent {
        switch self {
        case let .removed(updates): .removed(updates.map(\.ignoringIDs))
        case let .selectionChanged(updates): .selectionChanged(updates.map(\.ignoringIDs))
        case let .reselected(update): .reselected(update.ignoringIDs)
        case let .reopened(update): .reopened(update.ignoringIDs)
        case let .payloadChanged(update): .payloadChanged(update.ignoringIDs)
        default: self
        }
    }
}

extension Optional<TabEvent> {
    var ignoringIDs: TabEvent? { map(\.ignoringIDs) }
}
