/// An edit a ``TabBarModel`` shows before the store has confirmed it: the set as the edit
/// will leave it, computed in memory from the set the bar shows.
///
/// The store's rules decide (a prediction is replaced by the store's answer as soon as
/// there is one); these follow the three rules a tap needs: one tab selected, the
/// selection follows its tab, a closed selected tab hands the selection to its right
/// neighbour (or the new last tab). `TabBarPredictionTests` checks each against the
/// store on random sets. When the rules become plans computed in memory, these should
/// become those plans.
enum TabBarPrediction: Sendable, Hashable {
    case select(TabID)
    /// The tabs with these ids, in their order in the set, moved to stand before the tab
    /// `before` (at the end when nil): SwiftUI's `onMove` said with ids.
    case move([TabID], before: TabID?)
    case close([TabID])

    /// `set` as it will stand after the edit; a tab the edit names that is not there is
    /// left to the store to refuse.
    func applied(to set: TabSet?) -> TabSet? {
        guard let set else { return nil }
        let tabs: [Tab]
        switch self {
        case let .select(id):
            guard set.index(of: id) != nil else { return set }
            tabs = set.tabs.map { $0.marked(selected: $0.id == id) }
        case let .move(ids, before):
            let moving = Set(ids)
            let staying = set.tabs.filter { !moving.contains($0.id) }
            let insertion = before.flatMap { anchor in staying.firstIndex { $0.id == anchor } } ?? staying.count
            var moved = staying
            moved.insert(contentsOf: set.tabs.filter { moving.contains($0.id) }, at: insertion)
            tabs = moved
        case let .close(ids):
            let closing = Set(ids)
            let staying = set.tabs.filter { !closing.contains($0.id) }
            guard let selected = set.selectedIndex, closing.contains(set.tabs[selected].id), !staying.isEmpty else {
                tabs = staying
                break
            }
            // The right neighbour: the first tab after the selected one that stays.
            let neighbour = set.tabs[(selected + 1)...].first { !closing.contains($0.id) } ?? staying[staying.count - 1]
            tabs = staying.map { $0.marked(selected: $0.id == neighbour.id) }
        }
        return TabSet(name: set.name, tabs: tabs, revision: set.revision)
    }
}

extension Tab {
    /// The same tab, selected or not.
    func marked(selected: Bool) -> Tab {
        isSelected == selected ? self : Tab(id: id, title: title, isSelected: selected, payload: payload)
    }
}
