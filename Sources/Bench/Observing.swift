import Dispatch
import Glibc
import TabStoreKit

/// The observation figures: how soon an observer holds another connection's commit, what an
/// idle observer costs, and what `await` adds to a `select`.
struct Observing {
    let size: BenchSize
    let folder: ScratchFolder

    func run() throws -> [Row] {
        progress("observation: latency from another connection's commit, idle cost, async select")
        let latency = try commitToValueMilliseconds(rounds: size.pick(200, quick: 50))
        let idleSeconds = size.pick(5.0, quick: 2.0)
        let watching = try idleCPUMillisecondsPerSecond(
            store: TabStore(path: folder.file("idle.sqlite"), options: .init(durability: .normal)), seconds: idleSeconds
        )
        let operations = size.pick(10_000, quick: 3_000)
        let store = try Fixture.store(at: folder.file("async.sqlite"), durability: .normal)
        let sync = try storeSelectionsPerSecond(store, operations: operations)
        let async = try asyncSelectionsPerSecond(store, operations: operations)
        return [
            Row(
                "observeLatency", "observe: another connection's select to the observer's value (median)",
                unit: .milliseconds, tabstore: latency, target: .value(atMost: 10),
                note: "a second connection in this process; the wake-up (inotify on the folder) is the one another process triggers"
            ),
            Row(
                "observeIdleCPU", "observe: CPU of an idle observer, ms per second (file notifications)",
                unit: .milliseconds, tabstore: watching, target: .value(atMost: 1)
            ),
            Row(
                "asyncSelectVsSync", "select, synchronous=NORMAL: async vs sync", unit: .perSecond,
                tabstore: async, peer: sync, peerName: "sync", target: nil
            ),
        ]
    }

    /// The median time from just before another connection's `select` to the observer
    /// holding the new value, one commit at a time.
    private func commitToValueMilliseconds(rounds: Int) throws -> Double {
        let path = folder.file("observe.sqlite")
        let observed = try Fixture.store(at: path, durability: .normal)
        let writer = try TabStore(path: path, options: .init(durability: .normal))
        let arrivals = Arrivals()
        let observer = Task.detached {
            for try await set in observed.observe(Fixture.setName) {
                arrivals.record(revision: set?.revision ?? 0)
            }
        }
        defer { observer.cancel() }
        arrivals.wait(forRevision: 1)
        var latencies: [Double] = []
        for round in 0..<rounds {
            let start = monotonicNanoseconds()
            let change = try writer.select(.index((round + 1) % 2), in: Fixture.setName)
            let arrived = arrivals.wait(forRevision: change.revision)
            latencies.append(Double(arrived &- start) / 1e6)
        }
        return median(latencies)
    }

    /// Process CPU time per second while one observer waits and nothing changes.
    private func idleCPUMillisecondsPerSecond(store: TabStore, seconds: Double) throws -> Double {
        try store.add(["A"], to: "idle", creatingSet: true)
        let observer = Task.detached { for try await _ in store.observe("idle") {} }
        defer { observer.cancel() }
        usleep(200_000)  // let the observer settle on its first value
        let before = cpuMilliseconds()
        usleep(UInt32(seconds * 1e6))
        return (cpuMilliseconds() - before) / seconds
    }

    /// `select` through `write { }`, awaited one after another from a task.
    private func asyncSelectionsPerSecond(_ store: TabStore, operations: Int) throws -> Double {
        let done = DispatchSemaphore(value: 0)
        let result = Arrivals()
        Task.detached {
            let start = monotonicNanoseconds()
            for operation in 0..<operations {
                _ = try? await store.write { try $0.select(.index((operation + 1) % 2), in: Fixture.setName) }
            }
            result.record(revision: Int(monotonicNanoseconds() - start))
            done.signal()
        }
        done.wait()
        return Double(operations) / (Double(result.latest) / 1e9)
    }
}

/// When each revision reached the observer.
private final class Arrivals: @unchecked Sendable {
    private let lock = DispatchSemaphore(value: 1)
    private let signal = DispatchSemaphore(value: 0)
    private var arrivals: [Int: UInt64] = [:]
    private(set) var latest = 0

    func record(revision: Int) {
        let now = monotonicNanoseconds()
        lock.wait()
        arrivals[revision] = now
        latest = revision
        lock.signal()
        signal.signal()
    }

    /// Blocks until `revision` (or a later one) has arrived; when it arrived.
    @discardableResult
    func wait(forRevision revision: Int) -> UInt64 {
        while true {
            lock.wait()
            let hit = arrivals.filter { $0.key >= revision }.map(\.value).min()
            lock.signal()
            if let hit { return hit }
            signal.wait()
        }
    }
}

/// User and system CPU time of this process so far.
private func cpuMilliseconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func milliseconds(_ time: timeval) -> Double { Double(time.tv_sec) * 1000 + Double(time.tv_usec) / 1000 }
    return milliseconds(usage.ru_utime) + milliseconds(usage.ru_stime)
}
