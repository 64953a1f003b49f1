/// Bringing back the most recently removed tab, as a browser does: at its old index
/// (clamped to the end), with its id and payload, selected again if it was selected when
/// removed (or if the set is empty).
package struct ReopenRule: SetRule {
    package typealias Outcome = TabEvent?

    package let setName: String
    package let ifRevision: Int?

    package init(in setName: String, ifRevision: Int? = nil) {
        self.setName = setName
        self.ifRevision = ifRevision
    }

    package var request: SnapshotRequest {
        var request = SnapshotRequest(setName: setName)
        request.lastClosed = true
        request.tabCount = true
        return request
    }

    package func plan(_ snapshot: SetSnapshot, into plan: inout WritePlan, context: RuleContext) throws(TabStoreError) -> TabEvent? {
        var set = try snapshot.requireSet(ifRevision: ifRevision)
        guard let closed = snapshot.lastClosed else { throw TabStoreError(.noClosedTabs(set: setName)) }
        let count = snapshot.tabCount
        let position = min(closed.position, count)
        let keys = plan.insertTabs(
            [NewTab(title: closed.title, uuid: closed.uuid, payload: closed.payload)], at: position, in: &set, count: count
        )
        plan.append(.deleteClosedTab(id: closed.id))
        let reselect = closed.wasSelected || set.selected == nil
        if reselect { plan.edit(setName) { $0.select(position) } }
        let event = TabEvent.reopened(TabUpdate(index: position, tab: Tab(id: closed.uuid, title: closed.title, isSelected: reselect)))
        plan.commitChange(to: set, selecting: reselect ? keys.first : set.selected.map { .row($0.id) }, event: event)
        return event
    }
}
