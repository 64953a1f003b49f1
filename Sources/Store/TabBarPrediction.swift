/// An edit a ``TabBarModel`` shows before the store has confirmed it: the set as the edit
/// will leave it, computed in memory from the set the bar shows by the store's own rules
/// (`TabRule.preview`). The store's answer replaces it as soon as there is one.
enum TabBarPrediction: Sendable, Hashable {
    case select(TabID)
    /// The tabs with these ids, in their order in the set, moved to stand before the tab
    /// `before` (at the end when nil): SwiftUI's `onMove` said with ids.
    case move([TabID], before: TabID?)
    case close([TabID])

    /// `set` as it will stand after the edit; an edit the rules refuse (a tab that is not
    /// there) leaves it as it is, for the store to refuse.
    func applied(to set: TabSet?) -> TabSet? {
        guard let set else { return nil }
        let predicted = switch self {
        case let .select(id): SelectRule(.id(id), in: set.name).preview(on: set)
        case let .move(ids, before): MoveByIDRule(ids, before: before, in: set.name).preview(on: set)
        case let .close(ids): RemoveRule(ids.map(TabRef.id), from: set.name).preview(on: set)
        }
        return predicted ?? set
    }
}
