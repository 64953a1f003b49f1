/// Selecting a tab (<doc:SelectionRules>: `guard i != lastSelectedIndex`): the old tab is
/// deselected and the new one selected, told as two `(index, tab)` pairs. Selecting the
/// selected tab writes nothing: a reselection, an event but not a change.
package struct SelectRule: SetRule {
    package typealias Outcome = Selection

    package let ref: TabRef
    package let setName: String
    package let ifRevision: Int?

    package init(_ ref: TabRef, in setName: String, ifRevision: Int? = nil) {
        self.ref = ref
        self.setName = setName
        self.ifRevision = ifRevision
    }

    package var request: SnapshotRequest {
        var request = SnapshotRequest(setName: setName)
        request.lookUp(ref)
        return request
    }

    package func plan(_ snapshot: SetSnapshot, into plan: inout WritePlan, context: RuleContext) throws(TabStoreError) -> Selection {
        let set = try snapshot.requireSet(ifRevision: ifRevision)
        guard let old = set.selected else { throw TabStoreError(.emptySet(set: setName)) }
        let new = try snapshot.resolve(ref)
        func selection(revision: Int, updates: [TabUpdate]) -> Selection {
            Selection(
                setName: setName, previousIndex: old.index, selectedIndex: new.index, selectedTab: new.tab(selected: true),
                updates: updates, revision: revision
            )
        }
        guard new.id != old.id else { return selection(revision: set.revision, updates: []) }
        let updates = [
            TabUpdate(index: old.index, tab: old.eventTab(selected: false)),
            TabUpdate(index: new.index, tab: new.eventTab(selected: true)),
        ]
        plan.edit(setName) { $0.select(new.index, previous: old.index) }
        plan.commitChange(to: set, selecting: .row(new.id), event: .selectionChanged(updates))
        return selection(revision: set.revision + 1, updates: updates)
    }
}

/// What a select did, without the set it left: ``SelectionChange`` less its `set`, as
/// ``TabStore/selectOnly(_:in:ifRevision:)-923mm`` returns it.
public struct Selection: Sendable, Hashable {
    public let setName: String
    /// The index that was selected before the call.
    public let previousIndex: Int
    /// The index selected now.
    public let selectedIndex: Int
    /// The selected tab now.
    public let selectedTab: Tab
    /// The old tab deselected, then the new one selected; empty on a reselection.
    public let updates: [TabUpdate]
    /// The set's revision after the call (unchanged on a reselection).
    public let revision: Int

    /// Whether the tab was already selected: nothing was written.
    public var isReselection: Bool { updates.isEmpty }
}
