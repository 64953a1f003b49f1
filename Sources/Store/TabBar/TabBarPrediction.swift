/// What a ``TabBarModel`` shows of an edit before the store has confirmed it: the set as
/// the edit will leave it, computed in memory from the set the bar shows by the store's own
/// rules (`TabRule.preview`). The store's answer replaces it as soon as there is one.
typealias TabBarPrediction = TabBarModel.Edit.Kind

extension TabBarModel.Edit.Kind {
    /// `set` as it will stand after the edit; an edit the rules refuse (a tab that is not
    /// there) and a reopen (only the store knows the closed tabs) leave it as it is.
    func applied(to set: TabSet?) -> TabSet? {
        guard let set else { return nil }
        let predicted = switch self {
        case let .select(id): SelectRule(.id(id), in: set.name).preview(on: set)
        case let .move(ids, before): MoveByIDRule(ids, before: before, in: set.name).preview(on: set)
        case let .close(ids): RemoveRule(ids.map(TabRef.id), from: set.name).preview(on: set)
        case .reopen: set
        }
        return predicted ?? set
    }
}

extension TabBarModel.Change {
    /// Every tab that differs between `before` and `after` (its index, or the tab itself:
    /// selected, title, payload), each once: first the tab that lost the selection, then
    /// the one that took it (the order of <doc:SelectionRules>), then the others in their order before,
    /// then the tabs only `after` has.
    static func between(_ before: TabSet?, _ after: TabSet?) -> [TabBarModel.Change] {
        let old = before?.tabs ?? []
        let new = after?.tabs ?? []
        var oldIndex: [TabID: Int] = [:]
        var newIndex: [TabID: Int] = [:]
        for (index, tab) in old.enumerated() { oldIndex[tab.id] = index }
        for (index, tab) in new.enumerated() { newIndex[tab.id] = index }
        var ids: [TabID] = []
        let wasSelected = before?.selectedTab?.id
        let isSelected = after?.selectedTab?.id
        if let wasSelected, wasSelected != isSelected { ids.append(wasSelected) }
        if let isSelected, isSelected != wasSelected { ids.append(isSelected) }
        for (index, tab) in old.enumerated() where !ids.contains(tab.id) {
            guard let now = newIndex[tab.id], now == index, new[now] == tab else {
                ids.append(tab.id)
                continue
            }
        }
        for tab in new where oldIndex[tab.id] == nil && !ids.contains(tab.id) { ids.append(tab.id) }
        return ids.map { id in
            TabBarModel.Change(
                old: oldIndex[id].map { TabUpdate(index: $0, tab: old[$0]) },
                new: newIndex[id].map { TabUpdate(index: $0, tab: new[$0]) }
            )
        }
    }
}
