import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Calls its handler on `queue` when another connection may have committed: at once when
/// the file system reports a write to the database or its `-wal` file (inotify on Linux,
/// a dispatch source on Apple platforms), and on a timer as well. The timer is the whole
/// mechanism where no notification can be had (an in-memory store, a folder that cannot
/// be watched); beside notifications it is only a safety net, so it runs at most once a
/// second. A wake-up is a hint: the handler reads `PRAGMA data_version` to know.
/// `@unchecked`: dispatch sources may be used from any thread; both are set once in `init`.
final class ChangeWakeup: Wakeup, @unchecked Sendable {
    /// The timer's interval when notifications work: rare, so an idle observer costs nothing.
    static let safetyInterval = Duration.seconds(1)

    private let timer: any DispatchSourceTimer
    private let watcher: (any DispatchSourceProtocol)?

    /// Whether file-system notifications are in use (else the timer polls at `pollInterval`).
    var isWatching: Bool { watcher != nil }

    init(path: String?, pollInterval: Duration, queue: DispatchQueue, handler: @escaping @Sendable () -> Void) {
        watcher = path.flatMap { Self.watch($0, queue: queue, handler: handler) }
        let interval = watcher == nil ? pollInterval : max(pollInterval, Self.safetyInterval)
        let nanoseconds = max(interval.milliseconds, 1) * 1_000_000
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(
            deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds),
            leeway: .nanoseconds(nanoseconds / 10)
        )
        timer.setEventHandler(handler: handler)
        timer.resume()
        watcher?.resume()
    }

    /// Stops both sources; the handler is not called after the queue has drained.
    func cancel() {
        timer.cancel()
        watcher?.cancel()
    }

    /// A write to the `-wal` file comes before the commit is visible: a writer appends its
    /// frames, syncs them, and only then publishes the commit in the shared-memory index,
    /// which no notification reports. So a notification is followed by a few more looks,
    /// soon and then later, until a slow sync has surely ended (each look is one
    /// `PRAGMA data_version` read when nothing changed).
    static let followUps: [Duration] = [.milliseconds(2), .milliseconds(20), .milliseconds(100), .milliseconds(500)]

    private static func wakeUp(_ handler: @escaping @Sendable () -> Void, on queue: DispatchQueue) {
        handler()
        for delay in followUps {
            queue.asyncAfter(deadline: .now() + .milliseconds(delay.milliseconds), execute: handler)
        }
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
        guard inotify_add_watch(descriptor, folder, mask) >= 0 else {
            close(descriptor)
            return nil
        }
        let names: Set<String> = [name, name + "-wal"]
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler {
            if drainEvents(descriptor, mentioning: names) { wakeUp(handler, on: queue) }
        }
        source.setCancelHandler { close(descriptor) }
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
        source.setEventHandler { wakeUp(handler, on: queue) }
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

/// libdispatch sets up its event loop (on Linux an epoll, an eventfd and a timerfd per
/// clock) the first time a source is resumed in the process, and traps when no file
/// descriptor is left for it: the first observer checks that there are, then has the loop
/// made, with the timer of the clock that observation's timers use.
package enum DispatchEventLoop {
    private static let started = Atomic<Bool>(false)

    /// The descriptors the loop takes at most (epoll, eventfd, a timerfd for each of three
    /// clocks), and one to spare.
    private static let descriptorsNeeded = 6

    /// Makes sure the event loop exists.
    /// - Returns: false when it could not be made: no descriptor is free.
    package static func start() -> Bool {
        if started.load(ordering: .acquiring) { return true }
        #if os(Linux)
        guard descriptorsAreFree(descriptorsNeeded) else { return false }
        #endif
        let source = DispatchSource.makeTimerSource(queue: .global())
        source.schedule(deadline: .now() + .seconds(3600))
        source.resume()
        source.cancel()
        started.store(true, ordering: .releasing)
        return true
    }
}

/// Whether `count` more file descriptors can be opened now (each is closed again).
package func descriptorsAreFree(_ count: Int) -> Bool {
    var opened: [Int32] = []
    defer { for descriptor in opened { close(descriptor) } }
    for _ in 0..<count {
        let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        opened.append(descriptor)
    }
    return true
}
