import Synchronization

/// Hands every committed change to the store's observers, in commit order.
///
/// There is one source of truth, the `change` journal: a write in this process
/// nudges the hub to read it at once, and a background task reads it when
/// `PRAGMA data_version` says another connection (another process) committed.
/// Observers get their changes through unbounded buffers: a slow observer costs
/// memory, never a writer's time.
final class ChangeHub: Sendable {
    private struct Observer {
        let continuation: AsyncStream<TabChange>.Continuation
        /// The set followed (it follows renames), or nil for every set.
        var setName: String?
    }

    private struct State {
        var observers: [Int: Observer] = [:]
        var nextKey = 0
        /// The newest journal id handed out.
        var lastID = 0
        var dataVersion = -1
        var poller: Task<Void, Never>?
    }

    private let state = Mutex(State())

    /// A new stream of the changes committed from now on.
    func subscribe(setName: String?, store: TabStore) -> AsyncStream<TabChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: TabChange.self, bufferingPolicy: .unbounded)
        let key = state.withLock { state -> Int in
            if state.observers.isEmpty {
                // Start at the journal's end: observers see what happens after they subscribe.
                state.lastID = (try? store.withDatabase { database throws(TabStoreError) in try database.lastChangeID() }) ?? 0
                state.dataVersion = -1
                state.poller = Self.startPolling(store: store)
            } else {
                deliver(&state, store: store, force: true, local: [])
            }
            let key = state.nextKey
            state.nextKey += 1
            state.observers[key] = Observer(continuation: continuation, setName: setName)
            return key
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { state in
                state.observers[key] = nil
                if state.observers.isEmpty {
                    state.poller?.cancel()
                    state.poller = nil
                }
            }
        }
        return stream
    }

    /// Ends every stream: their store is going away, so no change can come any more.
    func finishAll() {
        let continuations = state.withLock { state in
            defer {
                state.observers.removeAll()
                state.poller?.cancel()
                state.poller = nil
            }
            return state.observers.values.map(\.continuation)
        }
        // Outside the lock: finishing runs each stream's onTermination, which takes it.
        for continuation in continuations { continuation.finish() }
    }

    /// Reads the journal now and hands out what is new, then `local` (reselections,
    /// which are not journaled). Called after each write of this store.
    func publish(store: TabStore, local: [TabChange] = []) {
        state.withLock { state in
            guard !state.observers.isEmpty else { return }
            deliver(&state, store: store, force: true, local: local)
        }
    }

    /// Polls for changes other connections committed.
    private func poll(store: TabStore) {
        state.withLock { state in
            guard !state.observers.isEmpty else { return }
            deliver(&state, store: store, force: false, local: [])
        }
    }

    private func deliver(_ state: inout State, store: TabStore, force: Bool, local: [TabChange]) {
        let lastID = state.lastID
        let known = state.dataVersion
        let read = try? store.withDatabase { database throws(TabStoreError) in
            let version = try database.dataVersion()
            let changes = force || version != known ? try database.changes(after: lastID) : []
            return (version: version, changes: changes.map { JournaledChange(id: $0.id, change: $0.change) })
        }
        guard let read else { return }
        state.dataVersion = read.version
        state.lastID = read.changes.last?.id ?? lastID
        for change in read.changes.map(\.change) + local {
            for key in state.observers.keys.sorted() {
                guard var observer = state.observers[key] else { continue }
                // Names compare byte for byte, as SQLite compares them.
                guard observer.setName.map({ $0.utf8.elementsEqual(change.setName.utf8) }) ?? true else { continue }
                observer.continuation.yield(change)
                if case let .setRenamed(_, to) = change.event, observer.setName != nil {
                    observer.setName = to
                    state.observers[key] = observer
                }
            }
        }
    }

    private static func startPolling(store: TabStore) -> Task<Void, Never> {
        let interval = store.options.changePollInterval
        return Task.detached { [weak store] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let store else { return }
                store.hub.poll(store: store)
            }
        }
    }
}

/// A journal row on its way out of the database lock.
private struct JournaledChange: Sendable {
    let id: Int
    let change: TabChange
}

extension Database {
    /// Changes whenever another connection commits (not for this connection's own commits).
    func dataVersion() throws(TabStoreError) -> Int {
        try firstRow("PRAGMA data_version") { $0.int(0) } ?? 0
    }
}
