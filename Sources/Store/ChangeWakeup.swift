import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Calls its handler on `queue` when another connection may have committed: when the file
/// system reports a write to the database or its `-wal` file (inotify on Linux, a dispatch
/// source on Apple platforms), then a few more times soon after (see `RecheckTimer`).
/// While nothing is written, nothing wakes: no timer runs beside the notifications. Where
/// no notification can be had (no inotify instance or watch left, a `-wal` file that cannot
/// be opened), a timer polls every `pollInterval` instead. A wake-up is a hint: the handler
/// reads `PRAGMA data_version` to know.
/// `@unchecked`: dispatch sources may be used from any thread; all are set once in `init`.
final class ChangeWakeup: Wakeup, @unchecked Sendable {
    /// The notifications, or nil when polling.
    private let watcher: (any DispatchSourceProtocol)?
    /// The looks after a notification, or the polling timer when there is no watcher.
    private let timer: any DispatchSourceTimer

    /// Whether file-system notifications are in use (else the timer polls at `pollInterval`).
    var isWatching: Bool { watcher != nil }

    /// Whether nothing wakes until the next notification: notifications are in use and the
    /// looks after the last one have ended. For tests.
    var isIdle: Bool { watcher != nil && !looks.isScheduled }
    private let looks: RecheckTimer

    init(path: String?, pollInterval: Duration, queue: DispatchQueue, handler: @escaping @Sendable () -> Void) {
        let looks = RecheckTimer(queue: queue, handler: handler)
        watcher = path.flatMap { path in
            Self.watch(path, queue: queue) {
                handler()
                looks.start()
            }
        }
        if watcher == nil {
            let nanoseconds = max(pollInterval.milliseconds, 1) * 1_000_000
            looks.timer.schedule(
                deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds),
                leeway: .nanoseconds(nanoseconds / 10)
            )
            looks.timer.setEventHandler(handler: handler)
        }
        timer = looks.timer
        self.looks = looks
        timer.resume()
        watcher?.resume()
    }

    /// Stops the sources; the handler is not called after the queue has drained.
    func cancel() {
        timer.cancel()
        watcher?.cancel()
    }

    /// The folder holding the file, and the file's own name.
    private static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }

    #if os(Linux)
    /// Watches the folder, not the files: SQLite deletes and recreates the `-wal` file, and
    /// a folder watch names the file each event is about.
    private static func watch(
        _ path: String, queue: DispatchQueue, handler: @escaping @Sendable () -> Void
    ) -> (any DispatchSourceProtocol)? {
        let (folder, name) = split(path)
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        let mask = UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO)
        let watch = inotify_add_watch(descriptor, folder, mask)
        guard watch >= 0 else {
            close(descriptor)
            return nil
        }
        let names: Set<String> = [name, name + "-wal"]
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler {
            if drainEvents(descriptor, mentioning: names) { handler() }
        }
        InotifyWatches.opened(descriptor, watch: watch)
        source.setCancelHandler { InotifyWatches.close(descriptor) }
        return source
    }

    /// Reads every pending event; whether one was about a file in `names` (or events were lost).
    private static func drainEvents(_ descriptor: Int32, mentioning names: Set<String>) -> Bool {
        var relevant = false
        let capacity = 4096
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: MemoryLayout<inotify_event>.alignment)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer, capacity)
            guard count > 0 else { return relevant }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                if event.mask & UInt32(IN_Q_OVERFLOW) != 0 { relevant = true }
                if event.len > 0 {
                    let name = String(cString: (buffer + offset + header).assumingMemoryBound(to: CChar.self))
                    if names.contains(name) { relevant = true }
                }
                offset += header + Int(event.len)
            }
        }
    }
    #elseif canImport(Darwin)
    /// Watches the `-wal` file (each commit writes to it). The store's own connections keep
    /// that file in place while the store is open.
    private static func watch(
        _ path: String, queue: DispatchQueue, handler: @escaping @Sendable () -> Void
    ) -> (any DispatchSourceProtocol)? {
        let descriptor = open(path + "-wal", O_EVTONLY)
        guard descriptor >= 0 else { return nil }
        let source = DispatchSource.makeFileSystemObjectSource(
            fileDescriptor: descriptor, eventMask: [.write, .extend, .delete, .rename], queue: queue
        )
        source.setEventHandler(handler: handler)
        source.setCancelHandler { close(descriptor) }
        return source
    }
    #else
    private static func watch(
        _ path: String, queue: DispatchQueue, handler: @escaping @Sendable () -> Void
    ) -> (any DispatchSourceProtocol)? {
        nil
    }
    #endif
}

/// No wake-ups: for a database nothing else can change.
struct NoWakeup: Wakeup {
    var isWatching: Bool { false }
    func cancel() {}
}

/// The looks after a notification: the handler is called again at ``schedule``'s delays
/// from it. A write to the `-wal` file comes before the commit is visible: a writer appends
/// its frames, syncs them (with `synchronous=FULL`, milliseconds), and only then publishes
/// the commit in the shared-memory index, which no notification reports. So it looks soon,
/// then every millisecond while a sync usually lasts, then less and less often until a slow sync has
/// surely ended, then never until the next notification, which starts the schedule again.
/// Each look that finds nothing new is one `PRAGMA data_version` read.
/// `@unchecked`: `nextLook` is touched only on the queue, the timer from any thread.
final class RecheckTimer: @unchecked Sendable {
    /// Microseconds from the notification: with `synchronous=NORMAL` the commit is
    /// published microseconds after its write, with `FULL` after the sync.
    static let schedule: [Int] = [250, 500] + (1...16).map { $0 * 1_000 } + [32, 64, 128, 256, 512].map { $0 * 1_000 }

    let timer: any DispatchSourceTimer
    private var nextLook = 0
    /// Whether a look is to come; read from any thread.
    private let scheduled = Atomic<Bool>(false)

    var isScheduled: Bool { scheduled.load(ordering: .sequentiallyConsistent) }

    init(queue: DispatchQueue, handler: @escaping @Sendable () -> Void) {
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .distantFuture)
        timer.setEventHandler { [unowned self] in
            handler()
            setTimer()
        }
    }

    /// A notification came (on the queue): the schedule from its start.
    func start() {
        nextLook = 0
        setTimer()
    }

    /// The timer for the next look, or for never after the last.
    private func setTimer() {
        guard nextLook < Self.schedule.count else {
            timer.schedule(deadline: .distantFuture)
            scheduled.store(false, ordering: .sequentiallyConsistent)
            return
        }
        scheduled.store(true, ordering: .sequentiallyConsistent)
        let delay = Self.schedule[nextLook] - (nextLook == 0 ? 0 : Self.schedule[nextLook - 1])
        nextLook += 1
        timer.schedule(deadline: .now() + .microseconds(delay), leeway: .microseconds(100))
    }
}

#if os(Linux)
/// The inotify instances open in this process, with their watch. Closing an instance that
/// still watches something waits for the kernel's grace period (fsnotify's SRCU), and so
/// does a process that ends with one open: its exit is that much later. An instance whose
/// watch was removed a moment before closes at once; closed right after the removal, it
/// still waited now and then. So a cancelled watch is
/// removed at once and its instance closed a little later, and at exit every watch still
/// there is removed before the kernel closes the instances.
enum InotifyWatches {
    private static let open = Mutex<[Int32: Int32]>([:])
    private static let registered = Atomic<Bool>(false)

    static func opened(_ descriptor: Int32, watch: Int32) {
        open.withLock { $0[descriptor] = watch }
        if !registered.exchange(true, ordering: .acquiringAndReleasing) { atexit(removeInotifyWatchesAtExit) }
    }

    static func close(_ descriptor: Int32) {
        if let watch = open.withLock({ $0.removeValue(forKey: descriptor) }) {
            inotify_rm_watch(descriptor, watch)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(100)) { _ = Glibc.close(descriptor) }
    }

    /// At exit: every watch removed; the kernel then closes the instances without a wait.
    fileprivate static func removeEveryWatch() {
        for (descriptor, watch) in open.withLock({ $0 }) { inotify_rm_watch(descriptor, watch) }
    }
}

private func removeInotifyWatchesAtExit() {
    InotifyWatches.removeEveryWatch()
}
#endif

/// libdispatch sets up its event loop (on Linux an epoll, an eventfd and a timerfd per
/// clock) the first time a source is resumed in the process, and traps when no file
/// descriptor is left for it: the first observer checks that there are, then has the loop
/// made, with the timer of the clock that observation's timers use.
enum DispatchEventLoop {
    private static let started = Atomic<Bool>(false)

    /// The descriptors the loop takes at most (epoll, eventfd, a timerfd for each of three
    /// clocks), and one to spare.
    private static let descriptorsNeeded = 6

    /// Makes sure the event loop exists.
    /// - Returns: false when it could not be made: no descriptor is free.
    static func start() -> Bool {
        if started.load(ordering: .acquiring) { return true }
        #if os(Linux)
        guard descriptorsAreFree(descriptorsNeeded) else { return false }
        #endif
        let source = DispatchSource.makeTimerSource(queue: .global())
        source.schedule(deadline: .now() + .seconds(3600))
        // A source resumed with no handler is a client bug to libdispatch, which logs it.
        source.setEventHandler {}
        source.resume()
        source.cancel()
        started.store(true, ordering: .releasing)
        return true
    }
}

/// Whether `count` more file descriptors can be opened now (each is closed again).
func descriptorsAreFree(_ count: Int) -> Bool {
    var opened: [Int32] = []
    defer { for descriptor in opened { close(descriptor) } }
    for _ in 0..<count {
        let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        opened.append(descriptor)
    }
    return true
}

extension TabStore {
    /// Whether this process has the file descriptors that observing needs, for a process
    /// that may be near its limit (`ulimit -n`) and should refuse in a sentence: libdispatch
    /// traps when it cannot make its event loop, or later, as it runs, when it cannot open a
    /// file it needs. Makes the event loop now, if it was not made yet, then checks that
    /// `spare` more descriptors are free (each is closed again).
    ///
    /// The CLI's `watch` asks with 0 before it opens its store, and with 4 once its own
    /// descriptors are open.
    package static func observationCanStart(sparing spare: Int = 4) -> Bool {
        DispatchEventLoop.start() && descriptorsAreFree(spare)
    }
}
