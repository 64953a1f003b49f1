// What a device records of its own edits: worked out here, from the plan its rule made,
// so that the rules know nothing of sync. From the plan's journal rows and each set as the
// plan leaves it (a device's writes always know it), each change becomes the finest intent
// it can be told as; two rules' writes say more than their journal rows tell.
extension WritePlan {
    /// Appends the mutations that tell a server what `rule` planned here, refusing the edit
    /// when one of them is a mutation a server would refuse unread. Nothing for a plan that
    /// changes nothing.
    mutating func recordMutations(of rule: some TabRule) throws(TabStoreError) {
        guard !isEmpty else { return }
        let mutations = mutations(of: rule)
        for mutation in mutations { try mutation.validate() }
        if !mutations.isEmpty { append(.recordMutations(mutations)) }
    }

    /// The mutations of `rule`'s plan, in order.
    func mutations(of rule: some TabRule) -> [TabMutation] {
        switch rule {
        case let ensure as EnsureSetRule:
            // A set made with defaults is made on the server only when it has none by that name.
            guard let set = result(of: ensure.setName) else { return [] }
            return [.ensureSet(set: ensure.setName, tabs: set.tabs.map(SyncedTab.init))]
        case let importing as ImportRule:
            // Each set written, whole, as the document has it.
            var written = Set<ExactName>()
            for write in writes {
                if case let .journal(entry) = write { written.insert(ExactName(entry.setName)) }
            }
            return importing.document.sets.compactMap { entry in
                guard written.contains(ExactName(entry.name)), let set = result(of: entry.name) else { return nil }
                let replacing = replacedIDs[ExactName(entry.name)] ?? []
                return .put(set: entry.name, tabs: set.tabs.map(SyncedTab.init), selectedIndex: set.selectedIndex, replacing: replacing)
            }
        default:
            return mutations()
        }
    }

    /// The mutations that tell a server what this plan does, in order; none for a plan
    /// that changes nothing.
    private func mutations() -> [TabMutation] {
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
