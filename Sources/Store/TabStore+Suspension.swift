import Dispatch
import Synchronization

/// An app whose store lives in an app group's container must hold no database lock when
/// iOS suspends it, or the system ends it (exception `0xdead10cc`). The store's writes take
/// SQLite's write lock; its reads in WAL mode take only shared locks, which SQLite needs to
/// serve readers beside a writer, and which GRDB's suspension handling lets through too.
/// So suspending holds writes back, and lets reads go on.
extension TabStore {
    /// Holds this store's `async` writes back until ``resume()``, for an app about to be
    /// suspended; returns once no write of theirs holds or waits for the write lock.
    ///
    /// A write already running ends first (it may wait for another process's lock, up to
    /// the busy timeout); writes asked for while suspended wait on the store's write queue,
    /// in order, and run after ``resume()``: an edit a ``TabBarModel`` shows stays shown,
    /// pending, and is written when the app comes back. Reads go on. The synchronous calls
    /// are not held back: while suspended, make none that write.
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

    /// Whether ``suspend()`` holds this store's async writes back.
    public var isSuspended: Bool { suspension.isSuspended }
}

/// Whether async writes may start, and the one running: the write queue is serial, so at
/// most one write runs or waits here at a time.
final class SuspensionGate: Sendable {
    private struct State {
        var isSuspended = false
        var isWriting = false
        /// What the write waiting for `resume()` blocks on (the write queue's own thread,
        /// never one of the cooperative pool's).
        var resumed: DispatchSemaphore?
        /// `suspend()` calls waiting for the running write to end.
        var waitingForWrite: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    var isSuspended: Bool { state.withLock { $0.isSuspended } }

    /// Called on the write queue before a write: returns at once, or once resumed.
    func enterWrite() {
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

    /// Called on the write queue after a write.
    func leaveWrite() {
        let waiting = state.withLock { state in
            state.isWriting = false
            defer { state.waitingForWrite = [] }
            return state.waitingForWrite
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Suspends at once, in the caller's isolation (before the caller's task can be
    /// suspended), then waits for the running write.
    nonisolated(nonsending) func suspend() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state in
                state.isSuspended = true
                if state.isWriting { state.waitingForWrite.append(continuation) }
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
