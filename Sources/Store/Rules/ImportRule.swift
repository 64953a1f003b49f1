/// Importing a document: every set of it, all or nothing. A set that exists is refused
/// unless `replace`; then its tabs and selection are replaced, unless they are already as
/// in the document (that set is not written at all). A set the import creates is
/// journaled as added, then as selected when its selection is not its first tab. Tab ids
/// the document gives must not be held by another set's tabs; removed tabs holding them
/// are forgotten (the tab is back under that id).
package struct ImportRule: TabRule {
    package typealias Outcome = Int

    /// Checked already (`TabStoreDocument.validate()`).
    package let document: TabStoreDocument
    package let replace: Bool

    package init(_ document: TabStoreDocument, replace: Bool) {
        self.document = document
        self.replace = replace
    }

    /// How many sets were written; the others were already as in the document.
    package func plan(reading reader: any SnapshotReader, into plan: inout WritePlan, context: RuleContext) throws(TabStoreError) -> Int {
        var written = 0
        // Ids of tabs this import deletes before it inserts: free for the sets after.
        var freed = Set<TabID>()
        for (place, entry) in document.sets.enumerated() {
            var request = SnapshotRequest(setName: entry.name)
            request.allTabs = true
            request.holdersOf = entry.ids ?? []
            let snapshot = try context.snapshot(request, from: reader, into: &plan)
            if let existing = snapshot.record {
                guard replace else { throw TabStoreError(.setAlreadyExists(set: entry.name)) }
                if snapshot.holds(entry) {
                    plan.append(.skipTabs(entry.tabs.count))
                    continue
                }
                for tab in snapshot.tabs ?? [] { freed.insert(tab.uuid) }
                // A version 1 entry has no ids: a title already there stays the same tab.
                let tabs = entry.ids == nil ? snapshot.keepingTabs(titled: entry.tabs) : entry.newTabs
                try plan.claim(entry, place: place, holders: snapshot.holders, freed: freed)
                try plan.replaceTabs(of: existing, with: tabs, selecting: entry.selectedIndex ?? 0)
                // Ids kept by title are taken again.
                for tab in tabs { freed.remove(tab.uuid) }
            } else {
                try plan.claim(entry, place: place, holders: snapshot.holders, freed: freed)
                try plan.create(entry, from: snapshot)
            }
            written += 1
        }
        return written
    }
}

extension SetSnapshot {
    /// Whether the set has exactly the entry's tabs (byte for byte), selection, and the
    /// ids and payloads the entry gives.
    func holds(_ entry: TabStoreDocument.Entry) -> Bool {
        guard let record, let tabs, record.selected?.index == entry.selectedIndex else { return false }
        let payloads = entry.payloads ?? Array(repeating: [:], count: entry.tabs.count)
        return tabs.count == entry.tabs.count
            && zip(tabs, entry.tabs).allSatisfy { sameBytes($0.title, $1) }
            && (entry.ids.map { $0 == tabs.map(\.uuid) } ?? true)
            && (entry.ids == nil || zip(payloads, tabs).allSatisfy { samePayload($0, $1.payload) })
    }
}

extension WritePlan {
    /// Makes the entry's ids free: one held by a tab of another set (and not freed by
    /// this import) is refused; removed tabs holding them are forgotten.
    mutating func claim(
        _ entry: TabStoreDocument.Entry, place: Int, holders: [TabID: String], freed: Set<TabID>
    ) throws(TabStoreError) {
        guard let ids = entry.ids else { return }
        for (index, id) in ids.enumerated() {
            if let holder = holders[id], !freed.contains(id) {
                throw TabStoreError(.tabIDInUse(id: id, set: holder, place: "sets[\(place)].ids[\(index)]"))
            }
        }
        if !ids.isEmpty { append(.forgetClosedTabs(withIDs: ids)) }
    }

    /// Creates the entry's set as `add` would, then selects its selected tab.
    mutating func create(_ entry: TabStoreDocument.Entry, from snapshot: SetSnapshot) throws(TabStoreError) {
        for title in entry.tabs { try validTitle(title) }
        var set = try createSet(snapshot)
        try requireDistinct(entry.tabs, in: nil)
        let tabs = entry.newTabs
        let keys = insertTabs(tabs, at: 0, in: &set, count: 0)
        if !tabs.isEmpty { edit(set.name) { $0.select(0) } }
        commitChange(to: set, selecting: keys.first, event: .added(titles: entry.tabs, index: 0))
        guard let selectedIndex = entry.selectedIndex, selectedIndex > 0 else { return }
        let updates = [
            TabUpdate(index: 0, tab: Tab(id: tabs[0].uuid, title: tabs[0].title, isSelected: false)),
            TabUpdate(index: selectedIndex, tab: Tab(id: tabs[selectedIndex].uuid, title: tabs[selectedIndex].title, isSelected: true)),
        ]
        edit(set.name) { $0.select(selectedIndex) }
        commitChange(to: set.atRevision(set.revision + 1), selecting: keys[selectedIndex], event: .selectionChanged(updates))
    }
}

extension TabStoreDocument.Entry {
    /// The tabs to insert: with the entry's ids and payloads, or fresh ids.
    var newTabs: [NewTab] {
        tabs.enumerated().map { index, title in
            NewTab(title: title, uuid: ids?[index] ?? TabID(), payload: payloads?[index] ?? [:])
        }
    }
}
