/// Whole sets. A set name's revision never goes back: a set removed, or renamed away,
/// leaves its name at its last revision, and a set that later takes the name goes on
/// above it, so a revision once seen never names another state.

/// Renaming a set. Its revision goes above every revision either name has reached, and
/// the old name keeps that revision as its last.
package struct RenameSetRule: SetRule {
    package typealias Outcome = TabEvent?

    package let setName: String
    package let newName: String
    package let ifRevision: Int?

    package init(_ setName: String, to newName: String, ifRevision: Int? = nil) {
        self.setName = setName
        self.newName = newName
        self.ifRevision = ifRevision
    }

    package func validate() throws(TabStoreError) {
        try validSetName(newName)
    }

    package var request: SnapshotRequest {
        var request = SnapshotRequest(setName: setName)
        request.otherName = newName
        return request
    }

    /// The `.setRenamed` event, or nil for the same name.
    package func plan(_ snapshot: SetSnapshot, into plan: inout WritePlan, context: RuleContext) throws(TabStoreError) -> TabEvent? {
        let set = try snapshot.requireSet(ifRevision: ifRevision)
        guard !sameBytes(setName, newName) else { return nil }
        let other = snapshot.other ?? OtherName(name: newName, record: nil, nameRevision: 0)
        if other.record != nil { throw TabStoreError(.setAlreadyExists(set: newName)) }
        let revision = max(set.revision, other.nameRevision) + 1
        let event = TabEvent.setRenamed(from: setName, to: newName)
        plan.append(.renameSet(set.ref, to: newName))
        plan.commitChange(to: set, selecting: set.selected.map { .row($0.id) }, event: event, revision: revision)
        plan.append(.retireName(setName, revision: revision))
        plan.rename(setName, to: newName)
        return event
    }
}

/// Deleting a set with all its tabs. Its name keeps the revision of the removal.
package struct RemoveSetRule: SetRule {
    package typealias Outcome = Void

    package let setName: String
    package let ifRevision: Int?

    package init(_ setName: String, ifRevision: Int? = nil) {
        self.setName = setName
        self.ifRevision = ifRevision
    }

    package var request: SnapshotRequest { SnapshotRequest(setName: setName) }

    package func plan(_ snapshot: SetSnapshot, into plan: inout WritePlan, context: RuleContext) throws(TabStoreError) {
        let set = try snapshot.requireSet(ifRevision: ifRevision)
        plan.append(.deleteSet(set.ref))
        plan.append(.unlinkJournal(set.ref))
        plan.journal(.setRemoved, setName: setName, set: nil, revision: set.revision + 1)
        plan.append(.retireName(setName, revision: set.revision + 1))
        plan.forget(setName)
    }
}
