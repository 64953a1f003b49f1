/// Adding tabs, and making an empty set. Into an empty set, the first added tab becomes
/// selected (<doc:SelectionRules>: `isSelected: index == 0`); otherwise the selection stays.
package struct AddRule: SetRule {
    package typealias Outcome = TabEvent?

    package let tabs: [NewTab]
    package let setName: String
    /// `0...count`, or negative from the end (`-1` appends).
    package let index: Int
    package let ifRevision: Int?
    /// Whether a missing set is made, rather than refused.
    package let creatingSet: Bool

    package init(_ tabs: [NewTab], to setName: String, at index: Int = -1, ifRevision: Int? = nil, creatingSet: Bool) {
        self.tabs = tabs
        self.setName = setName
        self.index = index
        self.ifRevision = ifRevision
        self.creatingSet = creatingSet
    }

    package func validate() throws(TabStoreError) {
        for tab in tabs {
            try validTitle(tab.title)
            try validPayload(tab.payload)
        }
    }

    package var request: SnapshotRequest {
        var request = SnapshotRequest(setName: setName)
        request.titles = tabs.map(\.title)
        request.tabCount = true
        return request
    }

    /// The `.added` event, or nil when nothing changed (no titles, into a set that exists).
    package func plan(_ snapshot: SetSnapshot, into plan: inout WritePlan, context: RuleContext) throws(TabStoreError) -> TabEvent? {
        if !creatingSet, snapshot.record == nil { throw TabStoreError(.setNotFound(set: setName)) }
        var (set, isNew) = try plan.setOrNew(snapshot, ifRevision: ifRevision)
        try requireDistinct(tabs.map(\.title), in: snapshot)
        let count = snapshot.tabCount
        guard let position = insertionPosition(index, count: count) else {
            throw TabStoreError(.insertionIndexOutOfRange(index: index, count: count, set: setName))
        }
        if tabs.isEmpty && !isNew { return nil }
        let keys = plan.insertTabs(tabs, at: position, in: &set, count: count)
        let selected: TabKey?
        if let current = set.selected {
            selected = .row(current.id)
        } else {
            selected = keys.first
            if !keys.isEmpty { plan.edit(setName) { $0.select(position) } }
        }
        let event = TabEvent.added(titles: tabs.map(\.title), index: position)
        plan.commitChange(to: set, selecting: selected, event: event)
        return event
    }
}

/// Making an empty set; one that exists is `.setAlreadyExists`.
package struct CreateSetRule: SetRule {
    package typealias Outcome = TabEvent?

    package let setName: String

    package init(_ setName: String) {
        self.setName = setName
    }

    package var request: SnapshotRequest { SnapshotRequest(setName: setName) }

    package func plan(_ snapshot: SetSnapshot, into plan: inout WritePlan, context: RuleContext) throws(TabStoreError) -> TabEvent? {
        if snapshot.record != nil { throw TabStoreError(.setAlreadyExists(set: setName)) }
        let set = try plan.createSet(snapshot)
        let event = TabEvent.added(titles: [], index: 0)
        plan.commitChange(to: set, selecting: nil, event: event)
        return event
    }
}

extension WritePlan {
    /// The set, created when missing. A missing set is at the revision its name last
    /// reached, so `revision` guards a removed and re-created set too.
    mutating func setOrNew(
        _ snapshot: SetSnapshot, ifRevision revision: Int?
    ) throws(TabStoreError) -> (set: SetRecord, isNew: Bool) {
        if snapshot.record != nil { return (try snapshot.requireSet(ifRevision: revision), false) }
        if let revision, revision != snapshot.nameRevision {
            throw TabStoreError(.missingSetRevision(set: snapshot.name, expected: revision, actual: snapshot.nameRevision))
        }
        return (try createSet(snapshot), true)
    }
}

/// Making a set with its first tabs when it is missing, and leaving it as it is when it
/// exists: what an app runs at every launch for a bar that must be there. In one write, so
/// two processes launching at once make it once.
package struct EnsureSetRule: SetRule {
    package typealias Outcome = TabEvent?

    package let setName: String
    package let tabs: [NewTab]

    package init(_ setName: String, tabs: [NewTab]) {
        self.setName = setName
        self.tabs = tabs
    }

    package func validate() throws(TabStoreError) {
        for tab in tabs {
            try validTitle(tab.title)
            try validPayload(tab.payload)
        }
    }

    package var request: SnapshotRequest { SnapshotRequest(setName: setName) }

    /// `.added` when the set was made, nil when it was there (nothing written).
    package func plan(_ snapshot: SetSnapshot, into plan: inout WritePlan, context: RuleContext) throws(TabStoreError) -> TabEvent? {
        guard snapshot.record == nil else { return nil }
        try requireDistinct(tabs.map(\.title), in: nil)
        var set = try plan.createSet(snapshot)
        let keys = plan.insertTabs(tabs, at: 0, in: &set, count: 0)
        if !keys.isEmpty { plan.edit(setName) { $0.select(0) } }
        let event = TabEvent.added(titles: tabs.map(\.title), index: 0)
        plan.commitChange(to: set, selecting: keys.first, event: event)
        return event
    }
}
