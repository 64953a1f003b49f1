import Observation
import Synchronization

/// The state of one stored tab bar, for views: the tabs, which one is selected, and taps.
///
/// It follows ``TabStore/observe(_:)``, so every bar bound to one model shows the same
/// selection, and an edit made anywhere (another model, a widget, the `tabstore` command)
/// reaches it as a value. A tap goes through ``select(_:)``, which answers with the
/// documents' update pair (the old tab, now deselected, then the new one); a tap on the
/// tab that is already selected is a reselection, counted in ``reselection`` so a view
/// can scroll back to the top.
///
/// For example:
/// ```swift
/// @State var bar = TabBarModel(store: store, setName: "store-detail")
/// ...
/// ForEach(bar.tabs.indices, id: \.self) { index in
///     Button(bar.tabs[index].title) { Task { try await bar.select(index) } }
/// }
/// .onChange(of: bar.reselection) { scrollToTop() }
/// ```
@MainActor @Observable
public final class TabBarModel {
    /// A tap on the tab that was already selected.
    public struct Reselection: Sendable, Hashable {
        /// The tab's index.
        public let index: Int
        /// The tab, selected.
        public let tab: Tab
        /// How many reselections this model has seen, this one included: two taps in a row
        /// on the same tab are two different values.
        public let count: Int
    }

    /// The store the bar is kept in.
    @ObservationIgnored public let store: TabStore
    /// The set shown; it changes when the set is renamed.
    public private(set) var setName: String
    /// The tabs in order, the selected one marked; empty while the set does not exist.
    public private(set) var tabs: [Tab] = []
    /// The selected tab's index; nil when there are no tabs.
    public private(set) var selectedIndex: Int?
    /// The revision of the set shown; 0 before the first value.
    public private(set) var revision = 0
    /// The latest reselection, or nil before the first.
    public private(set) var reselection: Reselection?
    /// Why the bar stopped following the store (a read failed); nil while it follows.
    public private(set) var observationError: TabStoreError?

    /// Cancels the observing task when the model goes away.
    @ObservationIgnored private let observation = ObservationLifetime()

    /// Starts following `setName` in `store`; the first value arrives at once, off the main thread.
    public init(store: TabStore, setName: String) {
        self.store = store
        self.setName = setName
        let values = store.observe(setName)
        observation.task = Task { [weak self] in
            do {
                for try await set in values {
                    guard let self else { return }
                    self.apply(set)
                }
            } catch {
                self?.observationError = error as? TabStoreError
            }
        }
    }

    /// Selects the tab at `index` and shows the result at once.
    ///
    /// - Returns: the store's answer: `updates` holds the old and the new tab, or nothing
    ///   for a reselection (then ``reselection`` has changed too).
    /// - Throws: `TabStoreError.indexOutOfRange`, `.emptySet`, `.setNotFound`, or a database error.
    @discardableResult
    public func select(_ index: Int) async throws(TabStoreError) -> SelectionChange {
        let change = try await store.select(.index(index), in: setName)
        if change.isReselection {
            reselection = Reselection(
                index: change.selectedIndex, tab: change.selectedTab, count: (reselection?.count ?? 0) + 1
            )
        } else {
            // The whole set as the select left it, not the update pairs applied to what the
            // bar shows: the bar may not have shown its first observed value yet.
            apply(change.set)
        }
        return change
    }

    /// Shows an observed value unless the bar already shows a newer one (its own select's).
    private func apply(_ set: TabSet?) {
        guard let set else {
            show(tabs: [], selectedIndex: nil, revision: revision)
            return
        }
        guard set.revision > revision else { return }
        if setName != set.name { setName = set.name }
        show(tabs: set.tabs, selectedIndex: set.selectedIndex, revision: set.revision)
    }

    /// Assigns only what changed, so views bound to unchanged parts are not redrawn.
    private func show(tabs newTabs: [Tab], selectedIndex newIndex: Int?, revision newRevision: Int) {
        if tabs != newTabs { tabs = newTabs }
        if selectedIndex != newIndex { selectedIndex = newIndex }
        if revision != newRevision { revision = newRevision }
    }
}

/// Holds the observing task and cancels it when released with its model.
private final class ObservationLifetime: Sendable {
    private let current = Mutex<Task<Void, Never>?>(nil)

    var task: Task<Void, Never>? {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }

    deinit {
        current.withLock { $0?.cancel() }
    }
}
