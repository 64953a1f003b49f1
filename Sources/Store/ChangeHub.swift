import Dispatch
import Synchronization

/// Hands every committed change to the store's observers, in commit order, and every
/// new value to its value observers.
///
/// There is one source of truth, the `change` journal: a write in this process
/// nudges the hub to read it at once, and a wake-up from the backend (a file-system
/// notification or a server's NOTIFY, or a timer) has it read when another connection
/// (another process) may have committed.
/// The hub is handed the backend, never the store, so neither keeps the other alive. Its state lock guards only bookkeeping and is never held across a read;
/// deliveries are serialized by a lock of their own, so that values and changes go out
/// in commit order.
/// Observers get their changes through unbounded buffers: a slow observer costs
/// memory, never a writer's time. Value observers keep only the newest value.
/// A read that fails ends every stream with its error.
final class ChangeHub: Sendable {
    private struct Observer {
        let continuation: TabStoreStream<TabChange>.Continuation
        /// The set followed (it follows renames), or nil for every set.
        var setName: String?
    }

    private struct ValueObserver {
        let feed: any ValueFeeding
        /// The set followed (it follows renames), or nil for the list of sets.
        var setName: String?
    }

    private struct State {
        var observers: [Int: Observer] = [:]
        var values: [Int: ValueObserver] = [:]
        var nextKey = 0
        /// The newest journal id handed out.
        var lastID = 0
        /// `PRAGMA data_version` at the last read; nil before the first.
        var dataVersion: Int?
        var wakeup: (any Wakeup)?

        var isIdle: Bool { observers.isEmpty && values.isEmpty }

        /// The sets the observers follow; nil when one follows every set.
        var followedSets: [String]? {
            var names: [String] = []
            for name in observers.values.map(\.setName) + values.values.map(\.setName) {
                guard let name else { return nil }
                names.append(name)
            }
            return names
        }
    }

    private let backend: any TabStoreBackend
    private let pollInterval: Duration
    private let state = Mutex(State())
    /// Whether anyone observes (`!state.isIdle`), set under the state lock: a write with
    /// no observer checks it with a plain load instead of taking two locks.
    private let isObserved = Atomic<Bool>(false)
    /// Held for one whole delivery (journal read, hand-out, value reads).
    private let delivering = Mutex(())
    /// Where wake-ups run: off the cooperative pool.
    private let queue = DispatchQueue(label: "tabstore.changes")

    init(backend: any TabStoreBackend, pollInterval: Duration) {
        self.backend = backend
        self.pollInterval = pollInterval
    }

    /// Whether anyone observes, as a write sees it. For tests.
    var hasObservers: Bool { isObserved.load(ordering: .acquiring) }

    /// How many looks for other connections' commits a wake-up had the hub make, each
    /// counted once it has handed out what it found. For tests.
    var looks: Int { lookCount.load(ordering: .sequentiallyConsistent) }
    private let lookCount = Atomic<Int>(0)

    /// Whether wake-ups currently come from file-system notifications. For tests.
    var isWatchingFiles: Bool { state.withLock { $0.wakeup?.isWatching ?? false } }

    /// Whether a file's observers wait for a notification with no look to come. For tests.
    var wakeupIsIdle: Bool { state.withLock { ($0.wakeup as? ChangeWakeup)?.isIdle ?? false } }

    /// Whether the observers are never woken: nothing else can change the database. For tests.
    var neverWakes: Bool { state.withLock { $0.wakeup is NoWakeup } }

    /// A new stream of the changes committed from now on; from after journal id `start`
    /// instead when given and this is the first observer.
    func subscribe(setName: String?, after start: Int? = nil) -> TabStoreStream<TabChange> {
        let (stream, continuation) = TabStoreStream<TabChange>.make(keepingOnlyNewest: false)
        // Start at the journal's end: observers see what happens after they subscribe.
        // When that cannot be read, say so rather than guess (a guess of 0 replays history).
        let key: Int
        do throws(TabStoreError) {
            key = try register(after: start) { state, key in
                state.observers[key] = Observer(continuation: continuation, setName: setName)
            }.key
        } catch {
            continuation.finish(throwing: error)
            return stream
        }
        continuation.onTermination { [weak self] in self?.unregister(key) }
        if start != nil { queue.async { [weak self] in self?.poll() } }
        return stream
    }

    /// A new stream of values: the current one first, then each new one after a commit.
    /// With `start` (a value the caller read, and the journal's newest id in the same
    /// snapshot), the stream yields only the values after it, and nothing is read now
    /// unless other observers were already handed changes the caller's read came before.
    func subscribeValue<Value: Sendable & Equatable>(
        setName: String?, from start: (value: Value, journalID: Int)? = nil,
        read: @escaping @Sendable (any TabRecords, String?) throws(TabStoreError) -> Value
    ) -> TabStoreStream<Value> {
        if let unseen = backend.changesUnseen {
            // Other changes cannot be seen: the value there is, then the reason no other will come.
            let (stream, continuation) = TabStoreStream<Value>.make(keepingOnlyNewest: false)
            if ValueFeed(continuation: continuation, read: read).refresh(on: backend, setName: setName) {
                continuation.finish(throwing: unseen)
            }
            return stream
        }
        let (stream, continuation) = TabStoreStream<Value>.make(keepingOnlyNewest: true)
        let feed = ValueFeed(continuation: continuation, read: read, last: start?.value)
        // Under the delivery lock: no commit's value can overtake the first one.
        delivering.withLock { _ in
            let key: Int
            let handedOut: Int
            do throws(TabStoreError) {
                (key, handedOut) = try register(after: start?.journalID) { state, key in
                    state.values[key] = ValueObserver(feed: feed, setName: setName)
                }
            } catch {
                continuation.finish(throwing: error)
                return
            }
            continuation.onTermination { [weak self] in self?.unregister(key) }
            if let start, handedOut <= start.journalID {
                // A commit between the caller's read and the watch's start sent no
                // notification the watch saw: look at the journal once.
                queue.async { [weak self] in self?.poll() }
            } else if !feed.refresh(on: backend, setName: setName) {
                unregister(key)
            }
        }
        return stream
    }

    /// Adds an observer under a new key; the first one starts the wake-ups, from `start`
    /// when given, else from the journal's end. Returns the key and the newest journal id
    /// handed out before this observer came.
    private func register(
        after start: Int? = nil, _ add: (inout State, Int) -> Void
    ) throws(TabStoreError) -> (key: Int, handedOut: Int) {
        if let unseen = backend.changesUnseen { throw unseen }
        guard DispatchEventLoop.start() else {
            throw TabStoreError(.cannotFollowChanges(path: backend.location, reason: "no file descriptor is free (this process has too many files open)"))
        }
        let newestID: Int
        if let start {
            newestID = start
        } else {
            newestID = try backend.read { records throws(TabStoreError) in try records.lastChangeID() }
        }
        return state.withLock { state -> (key: Int, handedOut: Int) in
            if state.isIdle {
                state.lastID = newestID
                state.dataVersion = nil
                state.wakeup = startWakeups()
            }
            let key = state.nextKey
            state.nextKey += 1
            add(&state, key)
            state.wakeup?.follow(state.followedSets)
            isObserved.store(true, ordering: .releasing)
            return (key, state.lastID)
        }
    }

    private func unregister(_ key: Int) {
        let wakeup = state.withLock { state -> (any Wakeup)? in
            state.observers[key] = nil
            state.values[key] = nil
            guard state.isIdle else {
                state.wakeup?.follow(state.followedSets)
                return nil
            }
            isObserved.store(false, ordering: .releasing)
            defer { state.wakeup = nil }
            return state.wakeup
        }
        wakeup?.cancel()
    }

    /// Ends every stream: their store is going away, so no change can come any more.
    func finishAll(throwing error: TabStoreError? = nil) {
        let (continuations, feeds, wakeup) = state.withLock { state in
            defer {
                state.observers.removeAll()
                state.values.removeAll()
                state.wakeup = nil
                isObserved.store(false, ordering: .releasing)
            }
            return (state.observers.values.map(\.continuation), state.values.values.map(\.feed), state.wakeup)
        }
        wakeup?.cancel()
        // Outside the lock: finishing runs each stream's onTermination, which takes it.
        for continuation in continuations { continuation.finish(throwing: error) }
        for feed in feeds { feed.finish(throwing: error) }
    }

    /// Reads the journal now and hands out what is new, then `local` (reselections,
    /// which are not journaled). Called after each write of this store.
    func publish(local: [TabChange] = []) {
        deliver(force: true, local: local)
    }

    /// Reads the journal when another connection committed since the last read.
    private func poll() {
        deliver(force: false, local: [])
        lookCount.add(1, ordering: .sequentiallyConsistent)
    }

    private func deliver(force: Bool, local: [TabChange]) {
        // Nobody to tell. An observer registering meanwhile may have read the journal's end
        // before this commit: it hears of it at the next delivery, as when this was checked
        // under the locks.
        guard isObserved.load(ordering: .acquiring) else { return }
        delivering.withLock { _ in
            let snapshot = state.withLock { state in
                state.isIdle ? nil : (lastID: state.lastID, version: state.dataVersion)
            }
            guard let snapshot else { return }
            let read: JournalRead
            do throws(TabStoreError) {
                read = try backend.readJournal(after: snapshot.lastID, unlessVersionIs: force ? nil : snapshot.version)
            } catch {
                finishAll(throwing: error)
                return
            }
            let stale = state.withLock { state -> [(key: Int, feed: any ValueFeeding, setName: String?)] in
                let fresh = read.changes.drop { $0.id <= state.lastID }.map(\.change)
                state.lastID = max(state.lastID, read.changes.last?.id ?? 0)
                state.dataVersion = read.dataVersion
                for change in fresh + local {
                    hand(change, to: &state.observers)
                }
                let stale = staleValues(after: fresh, in: &state.values)
                // A set followed to its new name is followed there from now on.
                if fresh.contains(where: \.isSetRename) { state.wakeup?.follow(state.followedSets) }
                return stale
            }
            // Values are read outside the state lock, still in commit order.
            var ended: [Int] = []
            for value in stale where !value.feed.refresh(on: backend, setName: value.setName) {
                ended.append(value.key)
            }
            for key in ended { unregister(key) }
        }
    }

    private func hand(_ change: TabChange, to observers: inout [Int: Observer]) {
        for key in observers.keys.sorted() {
            guard var observer = observers[key] else { continue }
            // Names compare byte for byte, as SQLite compares them.
            guard observer.setName.map({ sameBytes($0, change.setName) }) ?? true else { continue }
            observer.continuation.yield(change)
            if case let .setRenamed(_, to) = change.event, observer.setName != nil {
                observer.setName = to
                observers[key] = observer
            }
        }
    }

    /// The value observers that `changes` touched, with the set each follows now (renames applied).
    private func staleValues(
        after changes: [TabChange], in values: inout [Int: ValueObserver]
    ) -> [(key: Int, feed: any ValueFeeding, setName: String?)] {
        var stale: [(key: Int, feed: any ValueFeeding, setName: String?)] = []
        for key in values.keys.sorted() {
            guard var value = values[key] else { continue }
            var touched = false
            for change in changes {
                guard let name = value.setName else {
                    touched = true
                    continue
                }
                guard sameBytes(name, change.setName) else { continue }
                touched = true
                if case let .setRenamed(_, to) = change.event { value.setName = to }
            }
            values[key] = value
            if touched { stale.append((key, value.feed, value.setName)) }
        }
        return stale
    }

    private func startWakeups() -> any Wakeup {
        backend.startWakeups(pollInterval: pollInterval, queue: queue) { [weak self] in
            self?.poll()
        }
    }
}

/// A value stream as the hub sees it, whatever its value's type.
protocol ValueFeeding: Sendable {
    /// Reads the value and yields it when it differs from the last one; false when the
    /// read failed and the stream has ended with its error.
    func refresh(on backend: any TabStoreBackend, setName: String?) -> Bool
    func finish(throwing error: TabStoreError?)
}

/// One value stream and the last value it yielded.
final class ValueFeed<Value: Sendable & Equatable>: ValueFeeding {
    private let continuation: TabStoreStream<Value>.Continuation
    private let read: @Sendable (any TabRecords, String?) throws(TabStoreError) -> Value
    private let last: Mutex<Value?>

    /// `last`: the value the observer already has, when it read one itself.
    init(
        continuation: TabStoreStream<Value>.Continuation,
        read: @escaping @Sendable (any TabRecords, String?) throws(TabStoreError) -> Value,
        last: Value? = nil
    ) {
        self.continuation = continuation
        self.read = read
        self.last = Mutex(last)
    }

    func refresh(on backend: any TabStoreBackend, setName: String?) -> Bool {
        let value: Value
        do throws(TabStoreError) {
            value = try backend.read { records throws(TabStoreError) in try read(records, setName) }
        } catch {
            continuation.finish(throwing: error)
            return false
        }
        let isNew = last.withLock { last in
            defer { last = value }
            return last != value
        }
        if isNew { continuation.yield(value) }
        return true
    }

    func finish(throwing error: TabStoreError?) {
        continuation.finish(throwing: error)
    }
}

private extension TabChange {
    var isSetRename: Bool {
        if case .setRenamed = event { return true }
        return false
    }
}
