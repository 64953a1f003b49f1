import Foundation
import TabStoreKit
import TabStoreSQLite

/// The figures of an app's tab bar (issue 31): how soon a write waiting for another
/// process's lock lands after the release, what an idle observing app costs beside a bare
/// Swift process, how soon it holds another process's commit, and its first value at launch
/// beside a bare hello. The app is TabStoreBenchApp, which imports only TabStoreKit.
struct AppRows {
    let size: BenchSize
    let folder: ScratchFolder

    /// What a person waits for at launch: the 10,000-tab set's tab count on screen. The
    /// ratio to the bare hello is shown beside it as a figure.
    static let firstValueTarget = Target.value(atMost: 10)

    func run() throws -> [Row] {
        var rows = try lockRelease()
        let app = executableFolder() + "/TabStoreBenchApp"
        guard access(app, X_OK) == 0 else {
            let note = "no TabStoreBenchApp binary next to the bench in \(executableFolder()): run `swift build -c release` first"
            return rows + [
                .missing("appIdleWakeups", "idle observing app: wake-ups per second vs a bare Swift process", unit: .wakeupsPerSecond, target: nil, because: note),
                .missing("appIdleCPU", "idle observing app: CPU ms per minute vs a bare Swift process", unit: .milliseconds, target: nil, because: note),
                .missing("appObserveLatencyP99", "observing app: another process's select to the app's value (p99)", unit: .milliseconds, target: .value(atMost: 5), because: note),
                .missing("appFirstValue10", "app's first value at launch, 10 tabs, vs bare hello (paired)", unit: .milliseconds, target: nil, because: note),
                .missing("appExit10", "app's launch to exit, 10 tabs, vs bare hello (paired)", unit: .milliseconds, target: nil, because: note),
                .missing("appFirstValue10000", "app's first value at launch, 10,000 tabs, vs bare hello (paired)", unit: .milliseconds, target: Self.firstValueTarget, because: note),
            ]
        }
        rows += try idleAndLatency(app: app)
        rows += try firstValue(app: app)
        return rows
    }

    // MARK: 4: lock release to write landed

    /// Another connection holds the write lock while a `select` waits for it; the time from
    /// just before that connection's COMMIT to the `select` returning, for tabstore's busy
    /// handler and for SQLite's own (`sqlite3_busy_timeout`) doing the same UPDATE.
    private func lockRelease() throws -> [Row] {
        let rounds = size.pick(20, quick: 8)
        progress("app: \(rounds) writes waiting for another connection's lock, tabstore's busy handler and SQLite's")
        let path = folder.file("lock.sqlite")
        let store = try Fixture.store(at: path, durability: .normal)
        let holder = try LockingConnection(path: path, busyTimeoutMilliseconds: 5_000)
        let waiter = try LockingConnection(path: path, busyTimeoutMilliseconds: 5_000)
        var mine: [Double] = []
        var sqlites: [Double] = []
        for round in 0..<rounds {
            mine.append(try afterRelease(of: holder) { try store.select(.index((round + 1) % 2), in: Fixture.setName) })
            sqlites.append(try afterRelease(of: holder) {
                try waiter.execute("BEGIN IMMEDIATE; UPDATE tab_set SET revision = revision + 1 WHERE name = '\(Fixture.setName)'; COMMIT")
            })
        }
        return [
            Row(
                "lockReleaseToWrite", "a write waiting for another connection's lock: release to write landed (median)",
                unit: .milliseconds, tabstore: median(mine), peer: median(sqlites), peerName: "SQLite's busy handler",
                ratio: .none, target: .value(atMost: 5),
                note: String(format: "slowest of %d: %.2f ms (SQLite's own: %.1f ms)", rounds, mine.max() ?? .nan, sqlites.max() ?? .nan)
            ),
        ]
    }

    /// Milliseconds from just before `holder` releases the write lock it takes to `write`
    /// (run on another thread, waiting for it) returning.
    private func afterRelease(of holder: LockingConnection, _ write: @escaping @Sendable () throws -> Void) throws -> Double {
        try holder.execute("BEGIN IMMEDIATE")
        let landed = Landing()
        Thread.detachNewThread {
            do { try write() } catch { landed.failure = "\(error)" }
            landed.mark()
        }
        // Long enough that the write is waiting (each try fails within microseconds).
        usleep(30_000)
        let released = monotonicNanoseconds()
        try holder.execute("COMMIT")
        let at = landed.wait()
        if let failure = landed.failure { throw BenchError("the waiting write failed: \(failure)") }
        return Double(at &- released) / 1e6
    }

    // MARK: 6: an idle observing app, and cross-process latency

    private func idleAndLatency(app: String) throws -> [Row] {
        let path = folder.file("app-observe.sqlite")
        _ = try Fixture.store(at: path, durability: .normal)
        let seconds = size.pick(10.0, quick: 3.0)
        progress("app: an observing app and a bare Swift process, each settled, then idle for \(Int(seconds)) s; then 200 selects from another process")
        let bare = try ChildProcess([app, "idle"])
        bare.settle()
        let bareCost = try bare.idleCost(seconds: seconds)
        bare.stop()
        let observer = try ChildProcess([app, "observe", path, Fixture.setName])
        observer.settle()
        let observerCost = try observer.idleCost(seconds: seconds)
        let writer = try TabStore(path: path, options: .init(durability: .normal))
        var latencies: [Double] = []
        for round in 0..<size.pick(200, quick: 50) {
            let start = monotonicNanoseconds()
            let change = try writer.select(.index((round + 1) % 2), in: Fixture.setName)
            let seen = try observer.waitForRevision(change.revision)
            latencies.append(Double(Int64(bitPattern: seen &- start)) / 1e6)
        }
        observer.stop()
        latencies.sort()
        let p99 = latencies[min(latencies.count - 1, Int((Double(latencies.count) * 0.99).rounded(.up)) - 1)]
        // The monitor's 1 s ticks fall 10 or 11 times into a 10 s window: one switch is the window's edge.
        let bound = bareCost.wakeupsPerSecond + 1 / seconds
        return [
            Row(
                "appIdleWakeups", "idle observing app: wake-ups per second vs a bare Swift process", unit: .wakeupsPerSecond,
                tabstore: observerCost.wakeupsPerSecond, peer: bareCost.wakeupsPerSecond, peerName: "bare", ratio: .none,
                target: .value(atMost: bound),
                note: "context switches of the whole process (getrusage, asked of the app) over the idle time, once its threads have been the same for 6 s; the bare process has run one task (libdispatch's worker pool monitor then ticks once a second in any Swift process that has); the bound is its figure and one switch more, for the window's edge"
            ),
            Row(
                "appIdleCPU", "idle observing app: CPU ms per minute vs a bare Swift process", unit: .milliseconds,
                tabstore: observerCost.cpuMillisecondsPerMinute, peer: bareCost.cpuMillisecondsPerMinute, peerName: "bare",
                target: nil, note: "CPU time of the whole process (getrusage, asked of the app; ended threads included) over the idle time, once its threads have been the same for 6 s"
            ),
            Row(
                "appObserveLatencyP99", "observing app: another process's select to the app's value (p99)", unit: .milliseconds,
                tabstore: p99, target: .value(atMost: 5),
                note: String(format: "from before the bench's select (synchronous=NORMAL) to the app's monotonic clock at the new value; median %.2f ms", median(latencies))
            ),
        ]
    }

    // MARK: 7: first value at launch

    private func firstValue(app: String) throws -> [Row] {
        let hello = executableFolder() + "/TabStoreBenchHello"
        guard access(hello, X_OK) == 0 else {
            throw BenchError("no TabStoreBenchHello binary next to the bench: run `swift build -c release` first")
        }
        var rows: [Row] = []
        let launches: [(count: Int, key: String, target: Target?)] = [
            (10, "appFirstValue10", nil), (10_000, "appFirstValue10000", Self.firstValueTarget),
        ]
        for (count, key, target) in launches {
            let path = folder.file("app-first-\(count).sqlite")
            _ = try Fixture.store(at: path, durability: .normal, tabCount: count)
            let runs = size.pick(40, quick: 12)
            progress("app: \(runs) launches showing the first value of \(count) tabs, alternating with a bare hello")
            let launch = Command([app, "first", path, Fixture.setName])
            let floor = Command([hello])
            let stderr = folder.file("app.stderr")
            var mine: [Command.ShownRun] = []
            var theirs: [Command.ShownRun] = []
            for round in -3..<runs {
                let (a, b) = round % 2 == 0 ? (launch, floor) : (floor, launch)
                let first = try a.runShowing(stderrPath: stderr)
                let second = try b.runShowing(stderrPath: stderr)
                guard first.status == 0, second.status == 0 else {
                    throw BenchError("a launch exited with status \(max(first.status, second.status)): \(firstLine(ofFile: stderr))")
                }
                guard round >= 0 else { continue }
                mine.append(a === launch ? first : second)
                theirs.append(a === launch ? second : first)
            }
            let shown = (mine.map(\.firstLineMilliseconds), theirs.map(\.firstLineMilliseconds))
            rows.append(Row(
                key, "app's first value at launch, \(count.formatted()) tabs, vs bare hello (paired)", unit: .milliseconds,
                tabstore: median(shown.0), peer: median(shown.1), peerName: "hello",
                ratio: .paired(median(zip(shown.0, shown.1).map { $0 / $1 })), target: target,
                note: "whole processes, spawn to the first line on standard output: open the store, TabBarModel(store:setName:), print the tab count; the hello's \"hello\""
            ))
            guard count == 10 else { continue }
            let ended = (mine.map(\.exitMilliseconds), theirs.map(\.exitMilliseconds))
            rows.append(Row(
                "appExit10", "app's launch to exit, 10 tabs, vs bare hello (paired)", unit: .milliseconds,
                tabstore: median(ended.0), peer: median(ended.1), peerName: "hello",
                ratio: .paired(median(zip(ended.0, ended.1).map { $0 / $1 })), target: nil,
                note: "the same launches, spawn to exit: the first value, then the store and its file watch closed"
            ))
        }
        return rows
    }
}

/// When a write on another thread returned.
private final class Landing: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var at: UInt64 = 0
    var failure: String?

    func mark() {
        at = monotonicNanoseconds()
        done.signal()
    }

    func wait() -> UInt64 {
        done.wait()
        return at
    }
}

/// A plain SQLite connection with SQLite's own busy handler.
private final class LockingConnection: @unchecked Sendable {
    private var handle: OpaquePointer?

    init(path: String, busyTimeoutMilliseconds: Int32) throws {
        guard sqlite3_open(path, &handle) == SQLITE_OK else { throw BenchError("cannot open \(path)") }
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
    }

    deinit { sqlite3_close(handle) }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchError("SQLite: \(String(cString: sqlite3_errmsg(handle))) in \(sql)")
        }
    }
}

/// A TabStoreBenchApp process, its standard output read line by line.
private final class ChildProcess {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var unread = Data()

    struct IdleCost {
        let wakeupsPerSecond: Double
        let cpuMillisecondsPerMinute: Double
    }

    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard try nextLine() == "ready" else { throw BenchError("\(arguments[0]) did not say it was ready") }
    }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// The next line the process wrote, or nil at its end.
    func nextLine() throws -> String? {
        while true {
            if let newline = unread.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: unread[unread.startIndex..<newline], as: UTF8.self)
                unread = Data(unread[unread.index(after: newline)...])
                return line
            }
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { return nil }
            unread += chunk
        }
    }

    /// The app's monotonic time at the first value of `revision` or later.
    func waitForRevision(_ revision: Int) throws -> UInt64 {
        while let line = try nextLine() {
            let fields = line.split(separator: " ")
            guard fields.count == 2, let seen = Int(fields[0]), let at = UInt64(fields[1]) else {
                throw BenchError("the observing app said \(line)")
            }
            if seen >= revision { return at }
        }
        throw BenchError("the observing app ended")
    }

    /// Waits until the process is idle for good: its threads the same for 6 s (at most
    /// 30 s). libdispatch ends a worker thread some seconds after its last work item; that
    /// end is a wake-up of the start, not of the idle app.
    func settle() {
        let tasks = "/proc/\(process.processIdentifier)/task"
        var threads = (try? FileManager.default.contentsOfDirectory(atPath: tasks).sorted()) ?? []
        var steadySince = monotonicNanoseconds()
        let start = steadySince
        while monotonicNanoseconds() - steadySince < 6_000_000_000, monotonicNanoseconds() - start < 30_000_000_000 {
            usleep(250_000)
            let now = (try? FileManager.default.contentsOfDirectory(atPath: tasks).sorted()) ?? []
            if now != threads {
                threads = now
                steadySince = monotonicNanoseconds()
            }
        }
    }

    /// Context switches and CPU time of the whole process while it idles `seconds`.
    func idleCost(seconds: Double) throws -> IdleCost {
        let (runtime, switches) = try cost()
        usleep(UInt32(seconds * 1e6))
        let (runtimeAfter, switchesAfter) = try cost()
        return IdleCost(
            wakeupsPerSecond: Double(switchesAfter - switches) / seconds,
            cpuMillisecondsPerMinute: Double(runtimeAfter - runtime) / 1e6 / seconds * 60
        )
    }

    /// What the process says of itself (getrusage): nanoseconds on a CPU and context
    /// switches so far, threads that have ended included, which a sum over its threads in
    /// /proc would lose. Asking costs it one wake-up, on each side of a comparison.
    private func cost() throws -> (runtime: Int, switches: Int) {
        input.fileHandleForWriting.write(Data("cost\n".utf8))
        guard let line = try nextLine() else { throw BenchError("\(process.executableURL?.path ?? "the app") ended") }
        let fields = line.split(separator: " ")
        guard fields.count == 3, fields[0] == "cost", let runtime = Int(fields[1]), let switches = Int(fields[2]) else {
            throw BenchError("the app said \(line) when asked its cost")
        }
        return (runtime, switches)
    }
}
