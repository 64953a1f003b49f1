import Synchronization

/// Hands every committed change to the store's observers, in commit order.
///
/// There is one source of truth, the `change` journal: a write in this process
/// nudges the hub to read it at once, and a background task reads it when
/// `PRAGMA data_version` says another connection (another process) committed.
/// The hub is handed a `JournalReader`, never the store, so neither keeps the other
/// alive; its own lock guards only its bookkeeping and is never held across a read.
/// Observers get their changes through unbounded buffers: a slow observer costs
/// memory, never a writer's time. A read that fails ends every stream with its error.
final class ChangeHub: Sendable {
    typealias Stream = AsyncThrowingStream<TabChange, any Error>

    private struct Observer {
        let continuation: Stream.Continuation
        /// The set followed (it follows renames), or nil for every set.
        var setName: String?
    }

    private struct State {
        var observers: [Int: Observer] = [:]
        var nextKey = 0
        /// The newest journal id handed out.
        var lastID = 0
        /// `PRAGMA data_version` at the last read; nil before the first.
        var dataVersion: Int?
        var poller: Task<Void, Never>?
    }

    private let reader: JournalReader
    private let pollInterval: Duration
    private let state = Mutex(State())

    init(reader: JournalReader, pollInterval: Duration) {
        self.reader = reader
        self.pollInterval = pollInterval
    }

    /// A new stream of the changes committed from now on.
    func subscribe(setName: String?) -> Stream {
        let (stream, continuation) = Stream.makeStream(bufferingPolicy: .unbounded)
        // Start at the journal's end: observers see what happens after they subscribe.
        // When that cannot be read, say so rather than guess (a guess of 0 replays history).
        let newestID: Int
        do {
            newestID = try reader.newestID()
        } catch {
            continuation.finish(throwing: error)
            return stream
        }
        let key = state.withLock { state -> Int in
            if state.observers.isEmpty {
                state.lastID = newestID
                state.dataVersion = nil
                state.poller = startPolling()
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
    func finishAll(throwing error: TabStoreError? = nil) {
        let continuations = state.withLock { state in
            defer {
                state.observers.removeAll()
                state.poller?.cancel()
                state.poller = nil
            }
            return state.observers.values.map(\.continuation)
        }
        // Outside the lock: finishing runs each stream's onTermination, which takes it.
        for continuation in continuations { continuation.finish(throwing: error) }
    }

    /// Reads the journal now and hands out what is new, then `local` (reselections,
    /// which are not journaled). Called after each write of this store.
    func publish(local: [TabChange] = []) {
        deliver(force: true, local: local)
    }

    /// Reads the journal when another connection committed since the last read.
    private func poll() {
        deliver(force: false, local: [])
    }

    private func deliver(force: Bool, local: [TabChange]) {
        let snapshot = state.withLock { state in
            state.observers.isEmpty ? nil : (lastID: state.lastID, version: state.dataVersion)
        }
        guard let snapshot else { return }
        let read: JournalRead
        do {
            read = try reader.read(after: snapshot.lastID, unlessVersionIs: force ? nil : snapshot.version)
        } catch {
            finishAll(throwing: error)
            return
        }
        state.withLock { state in
            // Another delivery may have handed out some of these while this one read.
            let fresh = read.changes.drop { $0.id <= state.lastID }
            state.lastID = max(state.lastID, read.changes.last?.id ?? 0)
            state.dataVersion = read.dataVersion
            for change in fresh.map(\.change) + local {
                hand(change, to: &state.observers)
            }
        }
    }

    private func hand(_ change: TabChange, to observers: inout [Int: Observer]) {
        for key in observers.keys.sorted() {
            guard var observer = observers[key] else { continue }
            // Names compare byte for byte, as SQLite compares them.
            guard observer.setName.map({ $0.utf8.elementsEqual(change.setName.utf8) }) ?? true else { continue }
            observer.continuation.yield(change)
            if case let .setRenamed(_, to) = change.event, observer.setName != nil {
                observer.setName = to
                observers[key] = observer
            }
        }
    }

    private func startPolling() -> Task<Void, Never> {
        let interval = pollInterval
        return Task.detached { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self else { return }
                self.poll()
            }
        }
    }
}

/// What one read of the journal found.
struct JournalRead: Sendable {
    /// `PRAGMA data_version` when read.
    let dataVersion: Int
    let changes: [(id: Int, change: TabChange)]
}

/// The hub's only way into the database: the change journal, read on the store's connection.
struct JournalReader: Sendable {
    let connection: SerializedDatabase

    func newestID() throws(TabStoreError) -> Int {
        try connection.withDatabase { database throws(TabStoreError) in try database.lastChangeID() }
    }

    /// The changes after `id`; none when `version` is given and no other connection has
    /// committed since it was read.
    func read(after id: Int, unlessVersionIs version: Int?) throws(TabStoreError) -> JournalRead {
        try connection.withDatabase { database throws(TabStoreError) in
            let now = try database.dataVersion()
            let changes = now == version ? [] : try database.changes(after: id)
            return JournalRead(dataVersion: now, changes: changes)
        }
    }
}

extension Database {
    /// Changes whenever another connection commits (not for this connection's own commits).
    func dataVersion() throws(TabStoreError) -> Int {
        try firstRow("PRAGMA data_version") { $0.int(0) } ?? 0
    }
}
