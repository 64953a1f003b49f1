/// The rules run on a set held in memory, writing nothing: what an edit will make of the
/// set a view shows, before the store has answered (``TabBarModel`` shows it at once). The
/// same rules the store runs, so a preview is the store's answer when the set is current.
extension TabRule {
    /// `set` as the rule would leave it, or nil when the rule refuses (a tab that is not
    /// there: left to the store to say) or needs what only the store knows (removed tabs).
    func preview(on set: TabSet, options: TabStore.Options = TabStore.Options()) -> TabSet? {
        let reader = SetPreview(set)
        var preview = WritePlan()
        preview.hold(set)
        do throws(TabStoreError) {
            _ = try plan(reading: reader, into: &preview, context: RuleContext(options: options, wantsResults: true))
        } catch {
            return nil
        }
        return preview.result(of: set.name)
    }
}

/// A snapshot reader over one set in memory: its tabs as records whose row ids are their
/// indices, positions from base 0. It knows no removed tabs and no other set.
final class SetPreview: SnapshotReader {
    private let set: TabSet
    private let tabs: [TabRecord]

    init(_ set: TabSet) {
        self.set = set
        tabs = set.tabs.enumerated().map { index, tab in
            TabRecord(id: index + 1, index: index, title: tab.title, uuid: tab.id, payload: tab.payload)
        }
    }

    func snapshot(_ request: SnapshotRequest) throws(TabStoreError) -> SetSnapshot {
        guard sameBytes(request.setName, set.name) else { return SetSnapshot(missing: request.setName) }
        let selected = set.selectedIndex.map { tabs[$0] }
        let record = SetRecord(id: 1, name: set.name, revision: set.revision, base: 0, selected: selected)
        // Positions are the indices here, and the selection is the tabs' own (a rule finds
        // none as an empty set): of a set in memory, only its revision can be one that
        // arithmetic would overflow (an app's `TabSet` at `Int.max`), and is checked.
        let shape = SetRowsSummary(
            name: set.name, base: 0, revision: set.revision, tabCount: tabs.count, distinctPositions: tabs.count,
            lowestPosition: tabs.isEmpty ? nil : 0, highestPosition: tabs.isEmpty ? nil : tabs.count - 1,
            selection: tabs.isEmpty ? .none : .ownTab,
            journaledRevision: nil, tabsWithoutValidID: nil, lowestClosedPosition: nil, highestClosedPosition: nil
        )
        return SetSnapshot(
            name: set.name, record: record, shape: shape, tabCount: tabs.count, nameRevision: 0,
            tabs: request.readsAllTabs(atRevision: set.revision) ? tabs : nil, found: tabs.answering(request.lookups),
            lastClosed: nil, other: request.otherName.map { OtherName(name: $0, record: nil, nameRevision: 0) }, holders: [:]
        )
    }
}
