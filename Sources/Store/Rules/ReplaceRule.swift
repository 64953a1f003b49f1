/// Replacing a set's whole tab list (<doc:SelectionRules>: `items` can be set again), creating the set
/// when missing. The selected title stays selected when it is still there, else the
/// first tab is. A title that was there before stays the same tab: its id and payload
/// are kept.
package struct ReplaceRule: SetRule {
    package typealias Outcome = TabEvent?

    package let titles: [String]
    package let setName: String
    package let ifRevision: Int?

    package init(_ setName: String, with titles: [String], ifRevision: Int? = nil) {
        self.titles = titles
        self.setName = setName
        self.ifRevision = ifRevision
    }

    package func validate() throws(TabStoreError) {
        for title in titles { try validTitle(title) }
    }

    package var request: SnapshotRequest {
        var request = SnapshotRequest(setName: setName)
        request.allTabs = true
        return request
    }

    package func plan(_ snapshot: SetSnapshot, into plan: inout WritePlan, context: RuleContext) throws(TabStoreError) -> TabEvent? {
        let set = try plan.setOrNew(snapshot, ifRevision: ifRevision).set
        let keep = set.selected.flatMap { old in titles.firstIndex { sameBytes($0, old.title) } }
        try plan.replaceTabs(of: set, with: snapshot.keepingTabs(titled: titles), selecting: keep ?? 0)
        return .replaced(tabCount: titles.count)
    }
}

extension SetSnapshot {
    /// New tabs with `titles`; a title already in the set keeps its tab's id and payload.
    func keepingTabs(titled titles: [String]) -> [NewTab] {
        var kept: [ExactName: TabRecord] = [:]
        for tab in tabs ?? [] { kept[ExactName(tab.title)] = tab }
        return titles.map { title in
            kept[ExactName(title)].map { NewTab(title: title, uuid: $0.uuid, payload: $0.payload) } ?? NewTab(title: title)
        }
    }
}

extension WritePlan {
    /// Replaces every tab of `set` with `newTabs` (ids as given), selecting the one at
    /// `selectedIndex` (the first when out of range; none when there are no tabs).
    mutating func replaceTabs(of set: SetRecord, with newTabs: [NewTab], selecting selectedIndex: Int) throws(TabStoreError) {
        for tab in newTabs { try validTitle(tab.title) }
        try requireDistinct(newTabs.map(\.title), in: nil)
        append(.deleteAllTabs(set.ref))
        noteReplaced(set.name)
        edit(set.name) { $0.tabs = [] }
        var emptied = set
        let keys = insertTabs(newTabs, at: 0, in: &emptied, count: 0)
        let selected = keys.indices.contains(selectedIndex) ? selectedIndex : (keys.isEmpty ? nil : 0)
        edit(set.name) { $0.select(selected) }
        commitChange(to: emptied, selecting: selected.map { keys[$0] }, event: .replaced(tabCount: newTabs.count))
    }
}
