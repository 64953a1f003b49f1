import Observation

/// The state of one stored tab bar, for views: the tabs, which one is selected, and what
/// a person does to them (select, reselect, move, close, reopen).
///
/// An edit shows at once: the bar changes before the store has written anything, even
/// while another process holds the database's write lock, and the store's answer then
/// confirms it or takes it back (``editError`` says why). A tap on the tab the bar shows
/// as selected is a reselection: answered at once, with nothing written, and counted in
/// ``reselection`` so a view can scroll back to the top.
///
/// Every model of one set in one store shows one state: a bar and its sticky copy made
/// with `TabBarModel(store:setName:)` share the tabs, the edits still on their way, the
/// reselections and ``editError``, like two views of one SwiftData query. An edit made
/// anywhere else (another store, a widget, the `tabstore` command) reaches them as a value.
///
/// An edit the store cannot write because another process held the write lock past the
/// busy timeout is kept, still shown, and written as soon as the lock is gone, in the
/// order the edits were made: ``pendingEdits`` lists what waits (at most
/// ``pendingEditLimit``), and ``cancel(_:)`` takes one back.
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
        /// How many reselections the bar has seen, this one included: two taps in a row
        /// on the same tab are two different values.
        public let count: Int
    }

    /// One tab an edit changes: an `(index, item)` pair (<doc:SelectionRules>) to reload, as the bar
    /// showed it before the edit and as it shows it after, with the whole tab (its
    /// payload too) on both sides.
    public struct Change: Sendable, Hashable {
        /// Where the tab stood and what it was; nil for a tab the edit brings in.
        public let old: TabUpdate?
        /// Where the tab stands and what it is now; nil for a tab the edit closes.
        public let new: TabUpdate?

        public init(old: TabUpdate?, new: TabUpdate?) {
            self.old = old
            self.new = new
        }
    }

    /// An edit the bar shows that the store has not written yet.
    public struct Edit: Sendable, Hashable, Identifiable {
        /// What the person did.
        public enum Kind: Sendable, Hashable {
            case select(TabID)
            /// The tabs with these ids, in their order in the set, moved to stand before the
            /// tab `before` (at the end when nil): SwiftUI's `onMove` said with ids.
            case move([TabID], before: TabID?)
            case close([TabID])
            /// Shown when the store answers: only the store remembers closed tabs.
            case reopen
        }

        /// Counts the bar's edits from 1, in the order made.
        public let id: Int
        public let kind: Kind
        /// What the edit changed in the bar when it was made (none for a reopen).
        public let changes: [Change]
        /// Whether the store's busy timeout has passed at least once while another process
        /// held the write lock: the edit is kept and written once the lock is gone.
        public internal(set) var isWaitingForLock: Bool
    }

    /// An edit the bar already shows, on its way to the store.
    ///
    /// Views can drop it: the bar shows the outcome either way, and ``editError`` keeps a
    /// refusal. Code that needs the store's answer awaits ``result``.
    public struct Pending<Value: Sendable>: Sendable {
        let outcome: EditOutcome<Value>
        /// What the edit changes, known at the tap (before the store has answered): for a
        /// select, the two pairs of <doc:SelectionRules>, the tab that was selected then the one that is
        /// now; for a move or a close, every tab whose place or state changes. Empty for a
        /// reselection, a reopen (only the store knows what comes back) and an edit refused
        /// at once.
        public let changes: [Change]
        /// The edit in ``pendingEdits``; nil when nothing waits (a reselection, a refusal).
        public let editID: Edit.ID?

        /// The store's answer once the edit is written; the error when the store refused it
        /// (the bar has gone back by then), `.editCancelled` when it was cancelled first.
        public var result: Value {
            get async throws(TabStoreError) { try await outcome.value() }
        }
    }

    /// How many edits may wait to be written at once; one more is refused
    /// (`.tooManyPendingEdits`) and not shown.
    public static let pendingEditLimit = 64

    /// What every model of this set in this store shows.
    @ObservationIgnored let state: TabBarState

    /// The store the bar is kept in.
    public var store: TabStore { state.store }
    /// The set shown; it changes when the set is renamed.
    public var setName: String { state.setName }
    /// The tabs in order, the selected one marked; empty while the set does not exist.
    public var tabs: [Tab] { state.tabs }
    /// The selected tab's index; nil when there are no tabs.
    public var selectedIndex: Int? { state.selectedIndex }
    /// The revision of the stored set the bar starts from; 0 while there is none.
    public var revision: Int { state.revision }
    /// The latest reselection, or nil before the first.
    public var reselection: Reselection? { state.reselection }
    /// Why the bar stopped following the store (a read failed); nil while it follows.
    public var observationError: TabStoreError? { state.observationError }
    /// The error of the last edit the store refused (the bar went back to what is stored);
    /// set it to nil once it has been shown (for every bar of the set).
    public var editError: TabStoreError? {
        get { state.editError }
        set { state.editError = newValue }
    }
    /// The edits shown but not written yet, in the order made.
    public var pendingEdits: [Edit] { state.pendingEdits }

    /// The selection rules' `lastSelectedIndex` (<doc:SelectionRules>): the selected index, or 0 when there is no tab,
    /// so a view restoring its place needs no fallback of its own.
    public var lastSelectedIndex: Int { selectedIndex ?? 0 }
    /// The selected tab, or nil when there are no tabs.
    public var selectedTab: Tab? { selectedIndex.map { tabs[$0] } }
    /// Whether some edits shown are still waiting for the store's answer.
    public var hasPendingEdits: Bool { !state.pendingEdits.isEmpty }

    /// Shows the set as stored now, read before this returns, then follows it.
    ///
    /// When another model of this set and store exists, this one shows its state and reads
    /// nothing. Otherwise the set is read once, on the store's reader connection, which
    /// never waits behind a write, so a view's first frame already has its tabs. On a
    /// server store that read is a round trip: there, prefer ``load(store:setName:)``. A
    /// read that fails leaves the bar empty with ``observationError`` set; so does a name no
    /// set can have (`.invalidSetName`), and such a bar follows nothing.
    public convenience init(store: TabStore, setName: String) {
        if let shared = TabBarRegistry.state(of: setName, in: store) {
            self.init(state: shared)
            return
        }
        let first = Result { () throws(TabStoreError) in
            try validSetName(setName)
            return try store.firstObservation(of: setName)
        }
        self.init(state: TabBarRegistry.add(TabBarState(store: store, setName: setName, first: first)))
    }

    /// A bar for `setName`, made once its first value has been read off the main actor
    /// (or at once, sharing the state of another model of the set).
    ///
    /// - Throws: `TabStoreError.Code.invalidSetName`, or the `TabStoreError` of that read.
    public static func load(store: TabStore, setName: String) async throws(TabStoreError) -> TabBarModel {
        try validSetName(setName)
        if let shared = TabBarRegistry.state(of: setName, in: store) { return TabBarModel(state: shared) }
        let first = try await store.onReadQueue { () throws(TabStoreError) in try store.firstObservation(of: setName) }
        // Another model may have been made meanwhile: share its state, drop this read.
        if let shared = TabBarRegistry.state(of: setName, in: store) { return TabBarModel(state: shared) }
        return TabBarModel(state: TabBarRegistry.add(TabBarState(store: store, setName: setName, first: .success(first))))
    }

    private init(state: TabBarState) {
        self.state = state
    }

    // MARK: Edits

    /// Selects the tab with this id, at once; a tap on the tab shown as selected is a
    /// reselection, answered at once without writing.
    ///
    /// - Returns: the pending write, with the update pairs (<doc:SelectionRules>: the old
    ///   tab, then the new one) at once in ``Pending/changes``; its result is the store's answer.
    @discardableResult
    public func select(_ id: TabID) -> Pending<SelectionChange> {
        state.select(id)
    }

    /// Selects the tab at `index` of ``tabs``, as ``select(_:)-(TabID)`` does; a negative
    /// index counts from the end (-1 is the last tab), as the store's indices do.
    @discardableResult
    public func select(_ index: Int) -> Pending<SelectionChange> {
        let position = index < 0 ? tabs.count + index : index
        guard tabs.indices.contains(position) else {
            return state.refuse(unlessTheSetIsMissing(TabStoreError(.indexOutOfRange(index: index, count: tabs.count, set: setName))))
        }
        return select(tabs[position].id)
    }

    /// Moves tabs as SwiftUI's `onMove` does: those at `offsets` to stand before the tab
    /// that was at `destination` (``tabs`` `.count` for the end), at once. The store is told
    /// which tabs by id, so a tab another process added or moved meanwhile does not
    /// change which tabs move. An offset outside ``tabs`` is refused at once:
    /// `.offsetOutOfRange`, `.insertionOffsetOutOfRange` for `destination`, or `.setNotFound`
    /// while the set does not exist.
    @discardableResult
    public func move(fromOffsets offsets: some Sequence<Int>, toOffset destination: Int) -> Pending<TabSetEdit> {
        let tabs = self.tabs
        let sources = Set(offsets)
        if let bad = sources.sorted().first(where: { !tabs.indices.contains($0) }) {
            return state.refuse(unlessTheSetIsMissing(TabStoreError(.offsetOutOfRange(offset: bad, count: tabs.count, set: setName))))
        }
        guard (0...tabs.count).contains(destination) else {
            return state.refuse(unlessTheSetIsMissing(TabStoreError(.insertionOffsetOutOfRange(offset: destination, count: tabs.count, set: setName))))
        }
        let ids = tabs.indices.filter(sources.contains).map { tabs[$0].id }
        // The first tab at or after the destination that stays: the moved tabs go before it.
        let anchor = tabs[destination...].first { !ids.contains($0.id) }?.id
        return state.perform(.move(ids, before: anchor)) { store, setName throws(TabStoreError) in
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

    /// Closes the tabs at `offsets` of ``tabs``, as SwiftUI's `onDelete` gives them. An offset
    /// outside ``tabs`` is refused at once: `.offsetOutOfRange`, or `.setNotFound` while the
    /// set does not exist.
    @discardableResult
    public func close(atOffsets offsets: some Sequence<Int>) -> Pending<TabSetEdit> {
        let sources = Set(offsets)
        if let bad = sources.sorted().first(where: { !tabs.indices.contains($0) }) {
            return state.refuse(unlessTheSetIsMissing(TabStoreError(.offsetOutOfRange(offset: bad, count: tabs.count, set: setName))))
        }
        return close(tabs.indices.filter(sources.contains).map { tabs[$0].id })
    }

    /// `outOfRange`, the refusal of an index or offset the bar has no tab at, or
    /// `.setNotFound` when the reason is that the set does not exist.
    private func unlessTheSetIsMissing(_ outOfRange: TabStoreError) -> TabStoreError {
        state.showsASet ? outOfRange : TabStoreError(.setNotFound(set: setName))
    }

    private func close(_ ids: [TabID]) -> Pending<TabSetEdit> {
        state.perform(.close(ids)) { store, setName throws(TabStoreError) in
            let edit = try store.remove(ids.map { TabRef.id($0) }, from: setName)
            return (edit, edit.set)
        }
    }

    /// Brings back the most recently closed tab where it was, selected again if it was.
    /// Shown when the store answers: only the store remembers closed tabs.
    @discardableResult
    public func reopen() -> Pending<TabSetEdit> {
        state.perform(.reopen) { store, setName throws(TabStoreError) in
            let edit = try store.reopen(in: setName)
            return (edit, edit.set)
        }
    }

    /// Takes back an edit that waits (one of ``pendingEdits``): the bar stops showing it at
    /// once, and its result throws `.editCancelled`. An edit whose write holds the lock
    /// already is written: the bar then shows it again with the store's answer. An id no
    /// edit waits under changes nothing.
    public func cancel(_ edit: Edit.ID) {
        state.cancel(edit)
    }

    /// Takes back every edit that waits, as ``cancel(_:)`` does.
    public func cancelPendingEdits() {
        for edit in pendingEdits { state.cancel(edit.id) }
    }

    /// Returns once the store has answered every edit made so far: each confirmed, or
    /// taken back with ``editError`` set (or cancelled).
    public func waitForPendingEdits() async {
        await state.waitUntilWritten()
    }
}
