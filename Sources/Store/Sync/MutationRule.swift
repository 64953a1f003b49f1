/// A mutation planned as the rule it names, on the state it finds: the server's when a
/// push applies it, a device's own when a pull replays its pending ones on the server's.
/// Ids stand for tabs, so an intent survives the other devices' edits: a tab to stand
/// before one that is gone goes to the end, removing or moving a tab that is gone does
/// nothing; what can no longer be done (a title taken, a tab renamed after its removal)
/// is refused with the rule's error.
package struct MutationRule: TabRule {
    package typealias Outcome = Void

    package let mutation: TabMutation

    package init(_ mutation: TabMutation) {
        self.mutation = mutation
    }

    package func plan(reading reader: any SnapshotReader, into plan: inout WritePlan, context: RuleContext) throws(TabStoreError) {
        switch mutation {
        case .unreadable:
            // Refused as a server refuses it before planning, with the same sentence.
            try mutation.validate()
        case let .add(set, tabs, before, creatingSet):
            let inner = AddRule(tabs.map(\.newTab), to: set, at: -1, creatingSet: creatingSet)
            try inner.validate()
            var request = inner.request
            if let before { request.lookUp(.id(before)) }
            request.holdersOf = tabs.map(\.id)
            let snapshot = try context.snapshot(request, from: reader, into: &plan)
            try requireFree(tabs, in: snapshot)
            let position = before.flatMap { anchor in snapshot.tab(withID: anchor)?.index } ?? snapshot.tabCount
            plan.append(.forgetClosedTabs(withIDs: tabs.map(\.id)))
            _ = try AddRule(tabs.map(\.newTab), to: set, at: position, creatingSet: creatingSet).plan(snapshot, into: &plan, context: context)
        case let .remove(set, ids):
            let all = RemoveRule(ids.map(TabRef.id), from: set)
            let snapshot = try context.snapshot(all.request, from: reader, into: &plan)
            let present = ids.filter { snapshot.tab(withID: $0) != nil }
            guard snapshot.record != nil, !present.isEmpty else { return }
            _ = try RemoveRule(present.map(TabRef.id), from: set).plan(snapshot, into: &plan, context: context)
        case let .move(set, id, before):
            let snapshot = try context.snapshot(MoveByIDRule([id], before: before, in: set).request, from: reader, into: &plan)
            guard snapshot.record != nil, snapshot.tab(withID: id) != nil else { return }
            let anchor = before.flatMap { snapshot.tab(withID: $0) != nil ? $0 : nil }
            _ = try MoveByIDRule([id], before: anchor, in: set).plan(snapshot, into: &plan, context: context)
        case let .rename(set, id, title):
            _ = try RenameRule(.id(id), to: title, in: set).plan(reading: reader, into: &plan, context: context)
        case let .select(set, id):
            _ = try SelectRule(.id(id), in: set).plan(reading: reader, into: &plan, context: context)
        case let .setPayload(set, id, payload):
            _ = try PayloadRule(payload, for: .id(id), in: set).plan(reading: reader, into: &plan, context: context)
        case let .ensureSet(set, tabs):
            let inner = EnsureSetRule(set, tabs: tabs.map(\.newTab))
            try inner.validate()
            var request = inner.request
            request.holdersOf = tabs.map(\.id)
            request.allTabs = true
            let snapshot = try context.snapshot(request, from: reader, into: &plan)
            if snapshot.record != nil {
                // Made already, as another device made it (the same titles): nothing to do.
                // Other tabs are refused, so that the device says its own were not kept.
                guard let here = snapshot.tabs, here.map(\.title).elementsEqual(tabs.map(\.title), by: sameBytes) else {
                    throw TabStoreError(.setAlreadyExists(set: set))
                }
                return
            }
            try requireFree(tabs, in: snapshot)
            plan.append(.forgetClosedTabs(withIDs: tabs.map(\.id)))
            _ = try inner.plan(snapshot, into: &plan, context: context)
        case let .put(set, tabs, selectedIndex, replacing):
            let document = TabStoreDocument(sets: [TabStoreDocument.Entry(
                name: set, selectedIndex: selectedIndex, tabs: tabs.map(\.title), ids: tabs.map(\.id), payloads: tabs.map(\.payload)
            )])
            try document.validate()
            var request = SnapshotRequest(setName: set)
            request.allTabs = true
            let snapshot = try context.snapshot(request, from: reader, into: &plan)
            // Tabs another device added, which this device never saw, are not erased.
            let seen = Set(replacing).union(tabs.map(\.id))
            let unseen = (snapshot.tabs ?? []).filter { !seen.contains($0.uuid) }.count
            if unseen > 0 { throw TabStoreError(.replacesUnseenTabs(set: set, count: unseen)) }
            _ = try ImportRule(document, replace: true).plan(reading: reader, into: &plan, context: context)
        case let .renameSet(set, to):
            _ = try RenameSetRule(set, to: to).plan(reading: reader, into: &plan, context: context)
        case let .removeSet(set):
            let inner = RemoveSetRule(set)
            let snapshot = try context.snapshot(inner.request, from: reader, into: &plan)
            guard snapshot.record != nil else { return }
            try inner.plan(snapshot, into: &plan, context: context)
        }
    }

    /// Refuses tabs whose ids a tab already has, in this set or another: a tab is in one
    /// place at a time.
    private func requireFree(_ tabs: [SyncedTab], in snapshot: SetSnapshot) throws(TabStoreError) {
        for tab in tabs {
            if let holder = snapshot.holders[tab.id] ?? snapshot.tab(withID: tab.id).map({ _ in snapshot.name }) {
                // No place: a mutation is no document whose ids a person could leave out.
                throw TabStoreError(.tabIDInUse(id: tab.id, set: holder, place: ""))
            }
        }
    }
}
