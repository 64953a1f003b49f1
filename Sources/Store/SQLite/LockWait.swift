import Synchronization
import TabStoreSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a connection waits for another connection's lock: it tries again every millisecond
/// until the busy timeout has passed, so a write lands within about a millisecond of the
/// lock's release. SQLite's own handler (`sqlite3_busy_timeout`) sleeps longer and longer
/// between tries, up to 100 ms, so a write could land that long after a release. A try
/// that fails costs one `fcntl`.
///
/// A wait can be cut short (``holdBack(_:)``): the connection's call then fails with
/// `.busy` at its next try, having changed nothing. A suspending app does that, so that
/// `suspend()` never waits for another process's lock.
final class LockWait: Sendable {
    /// The busy timeout.
    private let timeout: UInt64
    /// When the current wait began (the first try's failure). Only the thread that holds
    /// the connection touches it; atomic so the value can be shared with the backend.
    private let start = Atomic<UInt64>(0)
    /// How many callers hold waits back (a suspension, a cancelled edit).
    private let holds = Atomic<Int>(0)
    /// How many waits have begun: what a test waits for before it acts on a write that
    /// waits for a lock.
    private let begun = Atomic<Int>(0)

    /// The pause between tries: short enough that a released lock is taken within about a
    /// millisecond, long enough that a long wait costs little (a thousand `fcntl`s a second).
    static let pauseNanoseconds: UInt64 = 1_000_000

    init(timeout: Duration) {
        self.timeout = UInt64(clamping: max(timeout.milliseconds, 0)) * 1_000_000
    }

    /// Between `holdBack(true)` and the same caller's `holdBack(false)`, a wait for a lock
    /// ends at its next try (and a new one at once).
    func holdBack(_ on: Bool) {
        holds.add(on ? 1 : -1, ordering: .sequentiallyConsistent)
    }

    private var isHeldBack: Bool { holds.load(ordering: .sequentiallyConsistent) > 0 }

    /// How many times this connection has begun to wait for another connection's lock.
    var waitsBegun: Int { begun.load(ordering: .sequentiallyConsistent) }

    /// SQLite's busy handler: whether to try again (after a pause) after `tries` failures.
    fileprivate func tryAgain(after tries: Int32) -> Bool {
        let now = monotonicNanoseconds()
        if tries == 0 {
            start.store(now, ordering: .relaxed)
            begun.add(1, ordering: .sequentiallyConsistent)
        }
        guard !isHeldBack else { return false }
        let waited = now &- start.load(ordering: .relaxed)
        guard waited < timeout else { return false }
        var pause = timespec(tv_sec: 0, tv_nsec: Int(min(Self.pauseNanoseconds, timeout - waited)))
        var left = timespec()
        while nanosleep(&pause, &left) != 0 && errno == EINTR { pause = left }
        return !isHeldBack
    }
}

extension Database {
    /// Waits for other connections' locks as `wait` says, instead of SQLite's own busy handler.
    func waitForLocks(_ wait: LockWait) {
        let context = lockWaitContext ?? UnsafeMutablePointer<LockWait>.allocate(capacity: 1)
        if lockWaitContext == nil { context.initialize(to: wait) } else { context.pointee = wait }
        lockWaitContext = context
        sqlite3_busy_handler(handle, tryAgainAfterBusy, context)
    }

    var lockWait: LockWait? { lockWaitContext?.pointee }
}

/// The C callback: `context` points at the connection's `LockWait`, which the connection keeps.
private func tryAgainAfterBusy(_ context: UnsafeMutableRawPointer?, _ tries: Int32) -> Int32 {
    guard let context else { return 0 }
    return context.assumingMemoryBound(to: LockWait.self).pointee.tryAgain(after: tries) ? 1 : 0
}

/// Nanoseconds on the monotonic clock.
private func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}
