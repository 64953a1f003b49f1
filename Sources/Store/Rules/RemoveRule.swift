/// Removing tabs. Every reference is resolved before anything is removed, and a tab named
/// twice is removed once. When the selected tab goes, its right neighbour is selected, or
/// the new last tab when it was last. Removed tabs are remembered for `reopen`.
package struct RemoveRule: SetRule {
    package typealias Outcome = TabEvent?

    package let refs: [TabRef]
    package let setName: String
    package let ifRevision: Int?

    package init(_ refs: [TabRef], from setName: String, ifRevision: Int? = nil) {
        self.refs = refs
        self.setName = setName
        self.ifRevision = ifRevision
    }

    package var request: SnapshotRequest {
        var request = SnapshotRequest(setName: setName)
        request.refs = refs
        request.tabCount = true
        return request
    }

    package func plan(_ snapshot: SetSnapshot, into plan: inout WritePlan, context: RuleContext) throws(TabStoreError) -> TabEvent? {
        var set = try snapshot.requireSet(ifRevision: ifRevision)
        var removed: [TabRecord] = []
        var removedIDs = Set<Int>()
        for ref in refs {
            let tab = try snapshot.resolve(ref)
            if removedIDs.insert(tab.id).inserted { removed.append(tab) }
        }
        guard !removed.isEmpty else { return nil }
        removed.sort { $0.index < $1.index }
        let count = snapshot.tabCount
        let indices = removed.map(\.index)
        // A kept tab moves left by the removed tabs before it. A removed selected tab's
        // right neighbour takes its index so counted; with none to its right, the last tab.
        var newSelection = set.selected.map { selected in selected.index - indices.prefix { $0 < selected.index }.count }
        if let selected = set.selected, removedIDs.contains(selected.id), let shifted = newSelection {
            let remaining = count - removed.count
            newSelection = remaining == 0 ? nil : min(shifted, remaining - 1)
        }
        plan.append(.deleteTabs(removed.map(\.id)))
        plan.rememberClosed(removed, selectedID: set.selected?.id, in: set.ref, limit: context.options.closedTabLimit)
        plan.closeGaps(at: indices, in: &set, count: count)
        plan.edit(setName) { image in
            image.remove(indices)
            image.select(newSelection)
        }
        let event = TabEvent.removed(removed.map { tab in
            TabUpdate(index: tab.index, tab: tab.eventTab(selected: tab.id == set.selected?.id))
        })
        // The new selection is named by where it stands once the gaps are closed.
        let selecting: TabKey? = if let selected = set.selected, !removedIDs.contains(selected.id) {
            .row(selected.id)
        } else {
            newSelection.map { .position(set.base + $0) }
        }
        plan.commitChange(to: set, selecting: selecting, event: event)
        return event
    }
}
