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

// What a device records of its own edits: worked out from the plan, after the rule has
// planned it, from its journal rows and each set as the plan leaves it (a device's writes
// always know it). Each change becomes the finest intent it can be told as.
extension WritePlan {
    /// The mutations that tell a server what this plan does, in order; none for a plan
    /// that changes nothing.
    package func mutations() -> [TabMutation] {
        var created: Set<String> = []
        var entries: [JournalEntry] = []
        for write in writes {
            switch write {
            case let .insertSet(name, _): created.insert(name)
            case let .journal(entry): entries.append(entry)
            default: break
            }
        }
        var mutations: [TabMutation] = []
        var place = 0
        while place < entries.count {
            // A run of one set's changes (a multi-tab move journals one row per tab).
            let name = entries[place].setName
            var end = place + 1
            while end < entries.count, sameBytes(entries[end].setName, name) { end += 1 }
            let run = Array(entries[place..<end])
            mutations += Self.mutations(
                of: run, set: name, final: result(of: name), created: created.contains(name), replaced: seenIDs(of: name, in: run)
            )
            place = end
        }
        return mutations
    }

    /// The ids of the tabs this device saw in the set: those it had before the plan replaced
    /// them, those the plan removed, and those it leaves, each once.
    private func seenIDs(of name: String, in entries: [JournalEntry]) -> [TabID] {
        var ids = replacedIDs[ExactName(name)] ?? []
        for entry in entries {
            if case let .removed(updates) = entry.event { ids += updates.map(\.tab.id) }
        }
        ids += result(of: name)?.tabs.map(\.id) ?? []
        var seen = Set<TabID>()
        return ids.filter { $0 != .unknown && seen.insert($0).inserted }
    }

    private static func mutations(
        of entries: [JournalEntry], set name: String, final: TabSet?, created: Bool, replaced: [TabID]
    ) -> [TabMutation] {
        let put = final.map { set in [TabMutation.put(set: name, tabs: set.tabs.map(SyncedTab.init), selectedIndex: set.selectedIndex, replacing: replaced)] } ?? []
        guard let first = entries.first?.event else { return [] }
        switch first {
        case .setRemoved:
            return [.removeSet(set: name)]
        case let .setRenamed(from, to):
            return [.renameSet(set: from, to: to)]
        default:
            break
        }
        guard let final else { return [] }
        let tabs = final.tabs
        func next(after index: Int) -> TabID? { tabs.indices.contains(index + 1) ? tabs[index + 1].id : nil }
        if entries.allSatisfy({ if case .moved = $0.event { true } else { false } }) {
            // Each moved tab before its final right neighbour, the rightmost first: each
            // neighbour is in its final place when a tab is moved before it.
            var moved: [Int] = []
            for entry in entries {
                guard case let .moved(title, _, _) = entry.event, let index = tabs.firstIndex(where: { sameBytes($0.title, title) }) else { return put }
                if !moved.contains(index) { moved.append(index) }
            }
            return moved.sorted(by: >).map { .move(set: name, id: tabs[$0].id, before: next(after: $0)) }
        }
        guard entries.count == 1 || created else { return put }
        switch first {
        case let .added(titles, index):
            guard index >= 0, index + titles.count <= tabs.count else { return put }
            let added = tabs[index..<index + titles.count]
            guard zip(added, titles).allSatisfy({ sameBytes($0.title, $1) }) else { return put }
            return [.add(set: name, tabs: added.map(SyncedTab.init), before: next(after: index + titles.count - 1), creatingSet: created)]
        case let .removed(updates):
            return [.remove(set: name, ids: updates.map(\.tab.id))]
        case let .renamed(_, _, to):
            guard let tab = tabs.first(where: { sameBytes($0.title, to) }) else { return put }
            return [.rename(set: name, id: tab.id, title: to)]
        case .selectionChanged:
            guard let selected = final.selectedIndex else { return put }
            return [.select(set: name, id: tabs[selected].id)]
        case let .reopened(update):
            guard let index = tabs.firstIndex(where: { $0.id == update.tab.id }) else { return put }
            var reopened: [TabMutation] = [.add(set: name, tabs: [SyncedTab(tabs[index])], before: next(after: index), creatingSet: false)]
            if tabs[index].isSelected { reopened.append(.select(set: name, id: tabs[index].id)) }
            return reopened
        case let .payloadChanged(update):
            guard let tab = tabs.first(where: { $0.id == update.tab.id }) else { return put }
            return [.setPayload(set: name, id: tab.id, payload: tab.payload)]
        case .replaced, .reselected, .moved, .setRemoved, .setRenamed:
            return put
        }
    }
}
