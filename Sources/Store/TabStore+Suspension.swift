import Dispatch
import Synchronization

/// An app whose store lives in an app group's container must hold no database lock when
/// iOS suspends it, or the system ends it (exception `0xdead10cc`). The store's writes take
/// SQLite's write lock; its reads in WAL mode take only shared locks, which SQLite needs to
/// serve readers beside a writer, and which GRDB's suspension handling lets through too.
/// So suspending holds writes back, and lets reads go on.
extension TabStore {
    /// Holds this store's writes made through ``write(_:)`` back until ``resume()``, for an app about to be
    /// suspended; returns once no write of theirs holds or waits for the write lock.
    ///
    /// It never waits for another process's lock: a write waiting for one stops waiting (it
    /// has changed nothing) and runs again after ``resume()``, before the writes asked for
    /// later. A write that holds the lock already ends first, which takes as long as its own
    /// work. Writes asked for while suspended wait on the store's write queue, in order, and
    /// run after ``resume()``: an edit a ``TabBarModel`` shows stays shown, pending, and is
    /// written when the app comes back. Reads go on. The synchronous calls are not held
    /// back: while suspended, make none that write.
    ///
    /// For example, in a SwiftUI app:
    /// ```swift
    /// .onChange(of: scenePhase) { _, phase in
    ///     if phase == .background { Task { await store.suspend() } }
    ///     if phase == .active { store.resume() }
    /// }
    /// ```
    /// An app with background modes resumes in each background callback that may write,
    /// and suspends again before it returns.
    nonisolated(nonsending) public func suspend() async {
        await suspension.suspend()
    }

    /// Lets the writes held back by ``suspend()`` run, in the order they were asked for.
    public func resume() {
        suspension.resume()
    }

    /// Whether ``suspend()`` holds this store's writes made through ``write(_:)`` back.
    public var isSuspended: Bool { suspension.isSuspended }
}

/// Whether `write(_:)`'s closures may start, and the one running: the write queue is serial, so at
/// most one write runs or waits here at a time.
final class SuspensionGate: Sendable {
    private struct State {
        var isSuspended = false
        var isWriting = false
        /// Whether the running write was told to stop waiting for a lock.
        var holdsBackLockWait = false
        /// What the write waiting for `resume()` blocks on (the write queue's own thread,
        /// never one of the cooperative pool's).
        var resumed: DispatchSemaphore?
        /// `suspend()` calls waiting for the running write to end.
        var waitingForWrite: [CheckedContinuation<Void, Never>] = []
        /// Write transactions this store has committed (see `noteCommit()`).
        var commits = 0
    }

    private let state = Mutex(State())
    /// Whose lock waits a suspension cuts short.
    private let backend: any TabStoreBackend

    init(backend: any TabStoreBackend) {
        self.backend = backend
    }

    var isSuspended: Bool { state.withLock { $0.isSuspended } }

    /// Whether a write waits on the write queue for `resume()`: from then on it can take no
    /// lock until resumed.
    var holdsAWriteBack: Bool { state.withLock { $0.resumed != nil } }

    /// Runs `work` (writes, each of which changes nothing when it throws) on the write
    /// queue once writes may run. When a suspension cut a wait for a lock short before
    /// `work` changed anything, it runs again after `resume()`; once it has changed
    /// something, running it again could make its first writes twice, so it fails.
    func write<T, Failure: Error>(_ work: () throws(Failure) -> T) throws(Failure) -> T {
        while true {
            enterWrite()
            let commitsBefore = commits
            do {
                let value = try work()
                leaveWrite()
                return value
            } catch {
                leaveWrite()
                let heldBack = (error as? TabStoreError)?.code == .busy && isSuspended && commits == commitsBefore
                if !heldBack { throw error }
            }
        }
    }

    /// Returns at once, or once resumed.
    private func enterWrite() {
        while true {
            let semaphore = state.withLock { state -> DispatchSemaphore? in
                guard state.isSuspended else {
                    state.isWriting = true
                    return nil
                }
                if state.resumed == nil { state.resumed = DispatchSemaphore(value: 0) }
                return state.resumed
            }
            guard let semaphore else { return }
            semaphore.wait()
        }
    }

    private var commits: Int { state.withLock { $0.commits } }

    /// Called by the store after each write transaction it commits: a call cut short
    /// after one runs again no more.
    func noteCommit() {
        state.withLock { $0.commits += 1 }
    }

    private func leaveWrite() {
        let waiting = state.withLock { state in
            // Under the lock: a suspension cannot set it again between the two.
            if state.holdsBackLockWait { backend.holdBackLockWaits(false) }
            defer {
                state.isWriting = false
                state.holdsBackLockWait = false
                state.waitingForWrite = []
            }
            return state.waitingForWrite
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Suspends at once, in the caller's isolation (before the caller's task can be
    /// suspended), then waits for the running write, whose wait for a lock it cuts short.
    nonisolated(nonsending) func suspend() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state in
                state.isSuspended = true
                if state.isWriting {
                    state.waitingForWrite.append(continuation)
                    if !state.holdsBackLockWait { backend.holdBackLockWaits(true) }
                    state.holdsBackLockWait = true
                }
                return !state.isWriting
            }
            if idle { continuation.resume() }
        }
    }

    func resume() {
        let semaphore = state.withLock { state in
            state.isSuspended = false
            defer { state.resumed = nil }
            return state.resumed
        }
        semaphore?.signal()
    }
}
