import Observation
import Synchronization

/// The state of one stored tab bar, for views: the tabs, which one is selected, and what
/// a person does to them (select, reselect, move, close, reopen).
///
/// An edit shows at once: the bar changes before the store has written anything, even
/// while another process holds the database's write lock, and the store's answer then
/// confirms it or takes it back (``editError`` says why). A tap on the tab the bar shows
/// as selected is a reselection: answered at once, with nothing written, and counted in
/// ``reselection`` so a view can scroll back to the top.
///
/// The bar follows ``TabStore/observe(_:)``, so every bar of one set shows the same
/// selection, and an edit made anywhere (another bar, a widget, the `tabstore` command)
/// reaches it as a value.
///
/// For example (a view is main-actor isolated, as the model is):
/// ```swift
/// import SwiftUI
/// import TabStoreKit
///
/// struct TabBar: View {
///     @State private var bar: TabBarModel
///     @State private var scrolledToTop = 0
///
///     init(store: TabStore) {
///         _bar = State(wrappedValue: TabBarModel(store: store, setName: "store-detail"))
///     }
///
///     var body: some View {
///         List {
///             ForEach(bar.tabs) { tab in
///                 Button(tab.title) { bar.select(tab.id) }
///             }
///             .onMove { bar.move(fromOffsets: $0, toOffset: $1) }
///             .onDelete { bar.close(atOffsets: $0) }
///         }
///         .onChange(of: bar.reselection) { scrolledToTop += 1 }
///     }
/// }
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

    /// An edit the bar already shows, on its way to the store.
    ///
    /// Views can drop it: the bar shows the outcome either way, and ``editError`` keeps a
    /// refusal. Code that needs the store's answer awaits ``result``.
    public struct Pending<Value: Sendable>: Sendable {
        let task: Task<Result<Value, TabStoreError>, Never>

        /// The store's answer once the edit is written; the error when the store refused it
        /// (the bar has gone back by then).
        public var result: Value {
            get async throws(TabStoreError) { try await task.value.get() }
        }
    }

    /// The store the bar is kept in.
    @ObservationIgnored public let store: TabStore
    /// The set shown; it changes when the set is renamed.
    public private(set) var setName: String
    /// The tabs in order, the selected one marked; empty while the set does not exist.
    public private(set) var tabs: [Tab] = []
    /// The selected tab's index; nil when there are no tabs.
    public private(set) var selectedIndex: Int?
    /// The revision of the stored set the bar starts from; 0 while there is none.
    public private(set) var revision = 0
    /// The latest reselection, or nil before the first.
    public private(set) var reselection: Reselection?
    /// Why the bar stopped following the store (a read failed); nil while it follows.
    public private(set) var observationError: TabStoreError?
    /// The error of the last edit the store refused (the bar went back to what is stored);
    /// set it to nil once it has been shown.
    public var editError: TabStoreError?

    /// The selection rules' `lastSelectedIndex` (<doc:SelectionRules>): the selected index, or 0 when there is no tab,
    /// so a view restoring its place needs no fallback of its own.
    public var lastSelectedIndex: Int { selectedIndex ?? 0 }
    /// The selected tab, or nil when there are no tabs.
    public var selectedTab: Tab? { selectedIndex.map { tabs[$0] } }
    /// Whether some edits shown are still waiting for the store's answer.
    public var hasPendingEdits: Bool { !pending.isEmpty }

    /// The newest value from the store: the set as stored.
    @ObservationIgnored private var stored: TabSet?
    /// Edits shown but not answered yet, in the order made.
    private var pending: [(number: Int, prediction: TabBarPrediction?)] = []
    @ObservationIgnored private var editCount = 0
    /// The last edit's write: each edit's write waits for the one before, so the store
    /// gets them in the order the person made them.
    @ObservationIgnored private var lastWrite: Task<Void, Never>?
    /// Cancels the observing task when the model goes away.
    @ObservationIgnored private let observation = ObservationLifetime()

    /// Shows the set as stored now, read before this returns, then follows it.
    ///
    /// The read uses the store's reader connection, which never waits behind a write, so a
    /// view's first frame already has its tabs. On a server store that read is a round trip:
    /// there, prefer ``load(store:setName:)``. A read that fails leaves the bar empty
    /// with ``observationError`` set.
    public convenience init(store: TabStore, setName: String) {
        let first: Result<TabSet?, TabStoreError> = Result { () throws(TabStoreError) in try store.observedValue(of: setName) }
        self.init(store: store, setName: setName, first: first)
    }

    /// A bar for `setName`, made once its first value has been read off the main actor.
    ///
    /// - Throws: the `TabStoreError` of that read.
    public static func load(store: TabStore, setName: String) async throws(TabStoreError) -> TabBarModel {
        let first = try await store.onReadQueue { () throws(TabStoreError) in try store.observedValue(of: setName) }
        return TabBarModel(store: store, setName: setName, first: .success(first))
    }

    private init(store: TabStore, setName: String, first: Result<TabSet?, TabStoreError>) {
        self.store = store
        self.setName = setName
        switch first {
        case let .success(set): adopt(set)
        case let .failure(error): observationError = error
        }
        let values = store.observe(setName)
        observation.task = Task { [weak self] in
            do throws(TabStoreError) {
                for try await set in values {
                    guard let self else { return }
                    if self.observationError != nil { self.observationError = nil }
                    self.adopt(set)
                }
            } catch {
                self?.observationError = error
            }
        }
    }

    // MARK: Edits

    /// Selects the tab with this id, at once; a tap on the tab shown as selected is a
    /// reselection, answered at once without writing.
    ///
    /// - Returns: the pending write; its result holds the update pairs (<doc:SelectionRules>: the old
    ///   tab, now deselected, then the new one), none for a reselection.
    @discardableResult
    public func select(_ id: TabID) -> Pending<SelectionChange> {
        if let index = selectedIndex, tabs[index].id == id {
            return reselect(at: index)
        }
        return perform(.select(id)) { store, setName throws(TabStoreError) in
            let change = try store.select(.id(id), in: setName)
            return (change, change.set)
        }
    }

    /// Selects the tab at `index` of ``tabs``, as ``select(_:)-(TabID)`` does.
    @discardableResult
    public func select(_ index: Int) -> Pending<SelectionChange> {
        guard tabs.indices.contains(index) else {
            return refuse(.indexOutOfRange(index: index, count: tabs.count, set: setName))
        }
        return select(tabs[index].id)
    }

    /// Moves tabs as SwiftUI's `onMove` does: those at `offsets` to stand before the tab
    /// that was at `destination` (``tabs`` `.count` for the end), at once. The store is told
    /// which tabs by id, so a tab another process added or moved meanwhile does not
    /// change which tabs move.
    @discardableResult
    public func move(fromOffsets offsets: some Sequence<Int>, toOffset destination: Int) -> Pending<TabSetEdit> {
        let sources = Set(offsets)
        if let bad = sources.sorted().first(where: { !tabs.indices.contains($0) }) {
            return refuse(.indexOutOfRange(index: bad, count: tabs.count, set: setName))
        }
        guard (0...tabs.count).contains(destination) else {
            return refuse(.insertionIndexOutOfRange(index: destination, count: tabs.count, set: setName))
        }
        let ids = tabs.indices.filter(sources.contains).map { tabs[$0].id }
        // The first tab at or after the destination that stays: the moved tabs go before it.
        let anchor = tabs[destination...].first { !ids.contains($0.id) }?.id
        return perform(.move(ids, before: anchor)) { store, setName throws(TabStoreError) in
            let edit = try store.move(ids, before: anchor, in: setName)
            return (edit, edit.set)
        }
    }

    /// Closes (removes) the tab with this id, at once; when it was selected, its right
    /// neighbour is (or the new last tab). ``reopen()`` brings it back.
    @discardableResult
    public func close(_ id: TabID) -> Pending<TabSetEdit> {
        close([id])
    }

    /// Closes the tabs at `offsets` of ``tabs``, as SwiftUI's `onDelete` gives them.
    @discardableResult
    public func close(atOffsets offsets: some Sequence<Int>) -> Pending<TabSetEdit> {
        let sources = Set(offsets)
        if let bad = sources.sorted().first(where: { !tabs.indices.contains($0) }) {
            return refuse(.indexOutOfRange(index: bad, count: tabs.count, set: setName))
        }
        return close(tabs.indices.filter(sources.contains).map { tabs[$0].id })
    }

    private func close(_ ids: [TabID]) -> Pending<TabSetEdit> {
        perform(.close(ids)) { store, setName throws(TabStoreError) in
            let edit = try store.remove(ids.map { TabRef.id($0) }, from: setName)
            return (edit, edit.set)
        }
    }

    /// Brings back the most recently closed tab where it was, selected again if it was.
    /// Shown when the store answers: only the store remembers closed tabs.
    @discardableResult
    public func reopen() -> Pending<TabSetEdit> {
        perform(nil) { store, setName throws(TabStoreError) in
            let edit = try store.reopen(in: setName)
            return (edit, edit.set)
        }
    }

    /// Returns once the store has answered every edit made so far: each confirmed, or
    /// taken back with ``editError`` set.
    public func waitForPendingEdits() async {
        await lastWrite?.value
    }

    // MARK: Showing

    /// Shows `prediction` now, then writes in turn after the edits before it; the answer
    /// replaces the prediction, or a refusal takes it back.
    private func perform<Value: Sendable>(
        _ prediction: TabBarPrediction?,
        _ write: @escaping @Sendable (TabStore, String) throws(TabStoreError) -> (Value, TabSet)
    ) -> Pending<Value> {
        editCount += 1
        let number = editCount
        pending.append((number, prediction))
        refresh()
        let (store, setName, previous) = (store, setName, lastWrite)
        let task = Task { [weak self] () -> Result<Value, TabStoreError> in
            await previous?.value
            let answer: Result<(Value, TabSet), TabStoreError>
            do throws(TabStoreError) {
                answer = .success(try await store.onWriteQueue { () throws(TabStoreError) in try write(store, setName) })
            } catch {
                answer = .failure(error)
            }
            self?.settle(number, answer.map { $0.1 })
            return answer.map { $0.0 }
        }
        lastWrite = Task { _ = await task.value }
        return Pending(task: task)
    }

    /// The store's answer to edit `number`: its set, or the refusal that takes the edit back.
    private func settle(_ number: Int, _ answer: Result<TabSet, TabStoreError>) {
        pending.removeAll { $0.number == number }
        switch answer {
        case let .success(set): adopt(set)
        case let .failure(error):
            editError = error
            refresh()
        }
    }

    private func reselect(at index: Int) -> Pending<SelectionChange> {
        let tab = tabs[index]
        reselection = Reselection(index: index, tab: tab, count: (reselection?.count ?? 0) + 1)
        let set = TabSet(name: setName, tabs: tabs, revision: revision)
        let change = SelectionChange(
            setName: setName, previousIndex: index, selectedIndex: index, selectedTab: tab, updates: [],
            revision: revision, set: set
        )
        // Nothing is written, as the store's own select writes nothing: only this process's
        // change observers hear of it, off the main actor (telling them reads the journal).
        let event = TabChange(
            setName: setName, revision: revision,
            event: .reselected(TabUpdate(index: index, tab: Tab(id: tab.id, title: tab.title, isSelected: true))),
            timestamp: currentTimestamp()
        )
        let hub = store.hub
        store.readQueue.async { hub.publish(local: [event]) }
        return Pending(task: Task { .success(change) })
    }

    /// An edit refused before it reached the store.
    private func refuse<Value>(_ error: TabStoreError) -> Pending<Value> {
        editError = error
        return Pending(task: Task { .failure(error) })
    }

    /// Takes a value from the store unless the bar already has a newer one (an edit's answer
    /// can overtake the observed values).
    private func adopt(_ set: TabSet?) {
        if let set, let current = stored, current.revision > set.revision { return }
        stored = set
        refresh()
    }

    /// Shows the stored set with the pending edits applied, assigning only what changed so
    /// that views bound to unchanged parts are not redrawn.
    private func refresh() {
        let shown = pending.reduce(stored) { set, edit in edit.prediction?.applied(to: set) ?? set }
        let newTabs = shown?.tabs ?? []
        let newIndex = shown?.selectedIndex
        // Names and titles compare byte for byte, as stored: a rename to a canonically
        // equivalent form ("é" to "e\u{301}") is a change to show.
        if let name = shown?.name, !sameBytes(setName, name) { setName = name }
        if tabs != newTabs { tabs = newTabs }
        if selectedIndex != newIndex { selectedIndex = newIndex }
        let newRevision = stored?.revision ?? 0
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
