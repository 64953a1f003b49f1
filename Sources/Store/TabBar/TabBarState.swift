import Observation
import Synchronization

/// What every ``TabBarModel`` of one set in one store shows: the stored set, the edits on
/// their way to the store (each shown at once) and their one queue of writes. Models hold
/// it; `TabBarRegistry` finds it while one does.
@MainActor @Observable
final class TabBarState {
    let store: TabStore
    private(set) var setName: String
    private(set) var tabs: [Tab] = []
    private(set) var selectedIndex: Int?
    private(set) var revision = 0
    private(set) var reselection: TabBarModel.Reselection?
    private(set) var observationError: TabStoreError?
    var editError: TabStoreError?
    /// The edits shown and not written, in the order made (cancelled ones left out).
    private(set) var pendingEdits: [TabBarModel.Edit] = []

    /// The newest value from the store: the set as stored.
    @ObservationIgnored private var stored: TabSet?
    /// The stored set with the pending edits applied: what the bar shows.
    @ObservationIgnored private var shown: TabSet?
    /// Whether a set of this name is shown: it exists, as stored or as the pending edits leave it.
    var showsASet: Bool { shown != nil }
    /// Every edit not yet answered, in the order made; the first is the one being written.
    @ObservationIgnored private var queue: [QueuedEdit] = []
    @ObservationIgnored private var editCount = 0
    /// Writes the queue's edits one after the other, while there are any.
    @ObservationIgnored private var writer: Task<Void, Never>?
    /// Callers of `waitUntilWritten()`.
    @ObservationIgnored private var waitingForQueue: [CheckedContinuation<Void, Never>] = []
    /// Cancels the observing task when the state goes away.
    @ObservationIgnored private let observation = ObservationLifetime()

    init(store: TabStore, setName: String, first: Result<(value: TabSet?, journalID: Int), TabStoreError>) {
        self.store = store
        self.setName = setName
        let values: TabStoreStream<TabSet?>
        switch first {
        case let .success(start):
            adopt(start.value)
            values = store.observe(setName, from: start)
        case let .failure(error):
            observationError = error
            // No set can have this name: there is nothing to follow.
            if error.code == .invalidSetName { return }
            values = store.observe(setName)
        }
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

    func select(_ id: TabID) -> TabBarModel.Pending<SelectionChange> {
        if let index = selectedIndex, tabs[index].id == id {
            return reselect(at: index)
        }
        return perform(.select(id)) { store, setName throws(TabStoreError) in
            let change = try store.select(.id(id), in: setName)
            return (change, change.set)
        }
    }

    /// Shows the edit now and queues its write after the edits before it; the answer
    /// replaces what was shown, a refusal takes it back, and a lock held past the busy
    /// timeout keeps it waiting.
    func perform<Value: Sendable>(
        _ kind: TabBarModel.Edit.Kind,
        _ write: @escaping @Sendable (TabStore, String) throws(TabStoreError) -> (Value, TabSet)
    ) -> TabBarModel.Pending<Value> {
        guard queue.count < TabBarModel.pendingEditLimit else {
            return refuse(TabStoreError(.tooManyPendingEdits(set: setName, limit: TabBarModel.pendingEditLimit)))
        }
        editCount += 1
        let changes = TabBarModel.Change.between(shown, kind.applied(to: shown))
        let outcome = EditOutcome<Value>()
        let edit = QueuedEdit(
            number: editCount, kind: kind,
            write: { store, setName throws(TabStoreError) -> TabSet in
                let (value, set) = try write(store, setName)
                outcome.prepare(value)
                return set
            },
            finish: { error in outcome.finish(failing: error) }
        )
        queue.append(edit)
        pendingEdits.append(TabBarModel.Edit(id: editCount, kind: kind, changes: changes, isWaitingForLock: false))
        refresh()
        if writer == nil { writer = Task { await self.writeQueue() } }
        return TabBarModel.Pending(outcome: outcome, changes: changes, editID: editCount)
    }

    /// An edit refused before it reached the store.
    func refuse<Value>(_ error: TabStoreError) -> TabBarModel.Pending<Value> {
        editError = error
        return TabBarModel.Pending(outcome: EditOutcome(.failure(error)), changes: [], editID: nil)
    }

    func cancel(_ number: Int) {
        guard let edit = queue.first(where: { $0.number == number && !$0.isCancelled }) else { return }
        edit.isCancelled = true
        edit.control.cancel(store.backend)
        pendingEdits.removeAll { $0.id == number }
        if edit !== queue.first {
            // Not begun: it never will be.
            queue.removeAll { $0 === edit }
            edit.finish(TabStoreError(.editCancelled(set: setName)))
        }
        refresh()
    }

    func waitUntilWritten() async {
        guard writer != nil else { return }
        await withCheckedContinuation { waitingForQueue.append($0) }
    }

    private func reselect(at index: Int) -> TabBarModel.Pending<SelectionChange> {
        let tab = tabs[index]
        reselection = TabBarModel.Reselection(index: index, tab: tab, count: (reselection?.count ?? 0) + 1)
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
        return TabBarModel.Pending(outcome: EditOutcome(.success(change)), changes: [], editID: nil)
    }

    // MARK: Writing

    /// Writes the queued edits in order until none is left.
    private func writeQueue() async {
        while let edit = queue.first {
            finish(edit, await write(edit))
        }
        writer = nil
        let waiting = waitingForQueue
        waitingForQueue = []
        for continuation in waiting { continuation.resume() }
    }

    /// Writes one edit; a lock held past the busy timeout has it tried again at once (the
    /// busy handler then waits up to the busy timeout again), until it is written,
    /// refused otherwise, or cancelled.
    private func write(_ edit: QueuedEdit) async -> Result<TabSet, TabStoreError> {
        while true {
            let (store, write, control, backend, setName) = (store, edit.write, edit.control, store.backend, self.setName)
            let result: Result<TabSet, TabStoreError>
            do throws(TabStoreError) {
                result = .success(try await store.onWriteQueue { () throws(TabStoreError) -> TabSet in
                    guard control.begin() else { throw TabStoreError(.editCancelled(set: setName)) }
                    defer { control.end(backend) }
                    do throws(TabStoreError) {
                        return try write(store, setName)
                    } catch .busy where control.isCancelled {
                        throw TabStoreError(.editCancelled(set: setName))
                    }
                })
            } catch {
                result = .failure(error)
            }
            guard case .failure(.busy) = result, !edit.isCancelled else { return result }
            if let index = pendingEdits.firstIndex(where: { $0.id == edit.number }), !pendingEdits[index].isWaitingForLock {
                pendingEdits[index].isWaitingForLock = true
            }
        }
    }

    /// The store's answer to the first edit: its set, or the refusal that takes it back.
    private func finish(_ edit: QueuedEdit, _ answer: Result<TabSet, TabStoreError>) {
        queue.removeAll { $0 === edit }
        pendingEdits.removeAll { $0.id == edit.number }
        switch answer {
        case let .success(set):
            adopt(set)
            edit.finish(nil)
        case let .failure(error):
            if edit.isCancelled {
                edit.finish(TabStoreError(.editCancelled(set: setName)))
            } else {
                editError = error
                edit.finish(error)
            }
            refresh()
        }
    }

    // MARK: Showing

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
        shown = queue.reduce(stored) { set, edit in edit.isCancelled ? set : edit.kind.applied(to: set) }
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

/// The bars some model still shows, of every store: a model of a set shows the state that
/// another model of that set in the same store shows already (a bar and its sticky copy
/// share their edits). A state is held weakly and holds its store, so a store is told apart
/// by identity while one of its bars lives, and nothing here keeps a bar or a store open.
@MainActor
enum TabBarRegistry {
    private struct Entry {
        weak var state: TabBarState?
    }

    private static var entries: [Entry] = []

    /// The state of `store`'s bar showing `setName` (compared byte for byte), if a model holds one.
    static func state(of setName: String, in store: TabStore) -> TabBarState? {
        entries.removeAll { $0.state == nil }
        return entries.lazy.compactMap(\.state).first { $0.store === store && sameBytes($0.setName, setName) }
    }

    static func add(_ state: TabBarState) -> TabBarState {
        entries.append(Entry(state: state))
        return state
    }
}

/// One edit in a bar's queue.
@MainActor
private final class QueuedEdit {
    let number: Int
    let kind: TabBarModel.Edit.Kind
    /// Writes the edit (one whole write of the store) and keeps its answer for `finish`.
    let write: @Sendable (TabStore, String) throws(TabStoreError) -> TabSet
    /// Hands the kept answer to the edit's `Pending`, or `error` instead.
    let finish: (TabStoreError?) -> Void
    let control = WriteControl()
    var isCancelled = false

    init(
        number: Int, kind: TabBarModel.Edit.Kind,
        write: @escaping @Sendable (TabStore, String) throws(TabStoreError) -> TabSet,
        finish: @escaping (TabStoreError?) -> Void
    ) {
        self.number = number
        self.kind = kind
        self.write = write
        self.finish = finish
    }
}

/// Whether an edit's write may begin, and a cancellation that cuts its wait for a lock short.
private final class WriteControl: Sendable {
    private struct State {
        var isCancelled = false
        var isWriting = false
        var holdsBackLockWait = false
    }

    private let state = Mutex(State())

    var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// On the write queue, before the write: false once cancelled.
    func begin() -> Bool {
        state.withLock { state in
            guard !state.isCancelled else { return false }
            state.isWriting = true
            return true
        }
    }

    /// On the write queue, after the write.
    func end(_ backend: any TabStoreBackend) {
        state.withLock { state in
            state.isWriting = false
            if state.holdsBackLockWait { backend.holdBackLockWaits(false) }
            state.holdsBackLockWait = false
        }
    }

    /// A write under way stops waiting for a lock (the writer's wait is the only one the
    /// connection can be in while this edit's write runs).
    func cancel(_ backend: any TabStoreBackend) {
        state.withLock { state in
            state.isCancelled = true
            if state.isWriting && !state.holdsBackLockWait {
                state.holdsBackLockWait = true
                backend.holdBackLockWaits(true)
            }
        }
    }
}

/// What an edit's `Pending` waits for: the store's answer, handed out once the bar shows it.
final class EditOutcome<Value: Sendable>: Sendable {
    private struct State {
        /// The write's answer, kept until the bar has taken its set.
        var prepared: Value?
        var result: Result<Value, TabStoreError>?
        var waiting: [CheckedContinuation<Result<Value, TabStoreError>, Never>] = []
    }

    private let state: Mutex<State>

    init(_ result: Result<Value, TabStoreError>? = nil) {
        state = Mutex(State(result: result))
    }

    /// On the write queue: the write's answer, not yet handed out.
    func prepare(_ value: Value) {
        state.withLock { $0.prepared = value }
    }

    /// Hands out the prepared answer, or `error`.
    func finish(failing error: TabStoreError?) {
        let (result, waiting) = state.withLock { state in
            let result: Result<Value, TabStoreError> = if let error {
                .failure(error)
            } else if let value = state.prepared {
                .success(value)
            } else {
                .failure(TabStoreError(.internalFailure(database: "", reason: "an edit was answered without a value")))
            }
            state.result = result
            defer { state.waiting = [] }
            return (result, state.waiting)
        }
        for continuation in waiting { continuation.resume(returning: result) }
    }

    func value() async throws(TabStoreError) -> Value {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, TabStoreError>, Never>) in
            let done = state.withLock { state in
                if state.result == nil { state.waiting.append(continuation) }
                return state.result
            }
            if let done { continuation.resume(returning: done) }
        }
        return try result.get()
    }
}

/// Holds the observing task and cancels it when released with its state.
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
