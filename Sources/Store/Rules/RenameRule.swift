/// Giving a tab a new title; renaming to the same title changes nothing. A removed tab
/// whose title is back in the set is forgotten.
package struct RenameRule: SetRule {
    package typealias Outcome = TabEvent?

    package let ref: TabRef
    package let newTitle: String
    package let setName: String
    package let ifRevision: Int?

    package init(_ ref: TabRef, to newTitle: String, in setName: String, ifRevision: Int? = nil) {
        self.ref = ref
        self.newTitle = newTitle
        self.setName = setName
        self.ifRevision = ifRevision
    }

    package func validate() throws(TabStoreError) {
        try validTitle(newTitle)
    }

    package var request: SnapshotRequest {
        var request = SnapshotRequest(setName: setName)
        request.lookUp(ref)
        request.titles = [newTitle]
        return request
    }

    /// The `.renamed` event, or nil for the same title.
    package func plan(_ snapshot: SetSnapshot, into plan: inout WritePlan, context: RuleContext) throws(TabStoreError) -> TabEvent? {
        let set = try snapshot.requireSet(ifRevision: ifRevision)
        let tab = try snapshot.resolve(ref)
        guard !sameBytes(tab.title, newTitle) else { return nil }
        try requireDistinct([newTitle], in: snapshot)
        plan.append(.renameTab(tab.id, to: newTitle))
        plan.append(.forgetClosedTabsBackIn(set.ref))
        plan.edit(setName) { $0.rename(tab.index, to: newTitle) }
        let event = TabEvent.renamed(index: tab.index, from: tab.title, to: newTitle)
        plan.commitChange(to: set, selecting: set.selected.map { .row($0.id) }, event: event)
        return event
    }
}

/// Replacing a tab's payload (an empty one removes it); its place, title and selection
/// stay. Setting the payload it already has changes nothing.
package struct PayloadRule: SetRule {
    package typealias Outcome = TabEvent?

    package let payload: [String: String]
    package let ref: TabRef
    package let setName: String
    package let ifRevision: Int?

    package init(_ payload: [String: String], for ref: TabRef, in setName: String, ifRevision: Int? = nil) {
        self.payload = payload
        self.ref = ref
        self.setName = setName
        self.ifRevision = ifRevision
    }

    package func validate() throws(TabStoreError) {
        try validPayload(payload)
    }

    package var request: SnapshotRequest {
        var request = SnapshotRequest(setName: setName)
        request.lookUp(ref)
        return request
    }

    /// The `.payloadChanged` event, or nil when the tab already has this payload.
    package func plan(_ snapshot: SetSnapshot, into plan: inout WritePlan, context: RuleContext) throws(TabStoreError) -> TabEvent? {
        let set = try snapshot.requireSet(ifRevision: ifRevision)
        let tab = try snapshot.resolve(ref)
        guard !samePayload(tab.payload, payload) else { return nil }
        plan.append(.setPayload(tab: tab.id, payload))
        plan.edit(setName) { $0.setPayload(tab.index, payload) }
        let event = TabEvent.payloadChanged(TabUpdate(index: tab.index, tab: tab.eventTab(selected: set.selected?.id == tab.id)))
        plan.commitChange(to: set, selecting: set.selected.map { .row($0.id) }, event: event)
        return event
    }
}
