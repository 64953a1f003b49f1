import Foundation

/// Nanoseconds on the monotonic clock: wall time that clock adjustments cannot bend.
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// Seconds `body` took, wall time.
func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = monotonicNanoseconds()
    try body()
    return Double(monotonicNanoseconds() - start) / 1e9
}

/// The median: one slow outlier (a checkpoint, a scheduler hiccup) does not move it.
func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// How long the run is: `--quick` trades precision for a shorter wait.
struct BenchSize: Sendable {
    let quick: Bool

    /// `full` normally, `quick` with `--quick`.
    func pick<T>(_ full: T, quick short: T) -> T { quick ? short : full }
}

/// Progress goes to stderr so that stdout is only the table (or the JSON).
func progress(_ message: String) {
    FileHandle.standardError.write(Data(("TabStoreBench: " + message + "\n").utf8))
}

/// A fresh folder for the run's database files.
///
/// Under /var/tmp by default: it is meant to be on disk, where /tmp is often tmpfs,
/// and a tmpfs makes every fsync free, hiding what durability costs.
final class ScratchFolder {
    let path: String

    init(parent: String) throws {
        var template = Array((parent + "/TabStoreBench-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw BenchError("cannot create a folder in \(parent): \(String(cString: strerror(errno)))")
        }
        path = String(cString: made)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A path inside the folder; `fresh` removes what an earlier run left there.
    func file(_ name: String, fresh: Bool = true) -> String {
        let file = path + "/" + name
        if fresh {
            for suffix in ["", "-wal", "-shm", "-journal"] {
                unlink(file + suffix)
            }
        }
        return file
    }

    /// True on tmpfs, where fsync costs nothing: FULL figures would flatter.
    /// The file system is the one of the longest mount point above the folder.
    var isTmpfs: Bool {
        let mounts = (try? String(contentsOfFile: "/proc/mounts", encoding: .utf8)) ?? ""
        let entries = mounts.split(separator: "\n").map { $0.split(separator: " ") }.filter { $0.count > 2 }
        let enclosing = entries.filter { entry in
            path == entry[1] || path.hasPrefix(entry[1] == "/" ? "/" : entry[1] + "/")
        }
        return enclosing.max { $0[1].count < $1[1].count }?[2] == "tmpfs"
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A loop timed against another: it runs the operations whose indices it is given.
typealias TimedLoop = (Range<Int>) throws -> Void

/// Two loops timed against each other.
struct LoopPair {
    let store: TimedLoop
    let raw: TimedLoop
}

/// Each side's rate, operations per second, in one round or as a figure.
struct PairedRates {
    let store: Double
    let raw: Double

    var ratio: Double { store / raw }
}

extension PairedRates {
    /// Two rounds as one: each side's geometric mean rate, so the ratio is the geometric
    /// mean of the two rounds' ratios.
    init(joining first: PairedRates, _ second: PairedRates) {
        self.init(store: (first.store * second.store).squareRoot(), raw: (first.raw * second.raw).squareRoot())
    }
}

/// The figure of `pairs` pairs of rounds (an odd number), each round on new loops that
/// `makeStore` and `makeRaw` build (new databases, connections and statements), each
/// running a whole round as a warm-up first (statements prepared, pages cached, the WAL
/// grown to its size), then a timed round in turns (`timedRound`). In a pair's first round
/// the store is built, warmed up and timed first, in its second the raw loop: a pair puts
/// neither side first. The figure is the pair whose ratio (the geometric mean of its two
/// rounds') is the median.
///
/// Why new loops each round, pairs, and a median of ratios: each side's median rate taken
/// apart could pair one round's store with another round's raw; in runs of the raw loop
/// against itself on one pair of databases, one side could stay ahead through a whole run
/// (1.006-1.094 in every round of one; where its files and memory landed, we suppose); and
/// with an odd number of single rounds one side went first more often.
func pairedRates(
    pairs: Int, operations: Int, block: Int,
    makeStore: (_ round: Int) throws -> TimedLoop, makeRaw: (_ round: Int) throws -> TimedLoop
) throws -> PairedRates {
    try medianPair(pairs: pairs) { round, storeFirst in
        func warmedUp(_ make: (Int) throws -> TimedLoop) throws -> TimedLoop {
            let loop = try make(round)
            try loop(0..<operations)
            return loop
        }
        let (first, second) = storeFirst ? (makeStore, makeRaw) : (makeRaw, makeStore)
        let firstLoop = try warmedUp(first)
        let secondLoop = try warmedUp(second)
        let pair = storeFirst ? LoopPair(store: firstLoop, raw: secondLoop) : LoopPair(store: secondLoop, raw: firstLoop)
        return try timedRound(operations: operations, block: block, pair, storeFirst: storeFirst)
    }
}

/// As `pairedRates`, on the one pair `loops` for every round (a server's databases, too
/// slow to make anew each round), warmed up by a whole round each first.
func pairedRates(pairs: Int, operations: Int, block: Int, _ loops: LoopPair) throws -> PairedRates {
    try loops.store(0..<operations)
    try loops.raw(0..<operations)
    return try medianPair(pairs: pairs) { _, storeFirst in
        try timedRound(operations: operations, block: block, loops, storeFirst: storeFirst)
    }
}

/// Runs `pairs` pairs of rounds, the store first in a pair's first round and second in its
/// other, and returns the pair whose ratio is the median: rates a pair measured.
private func medianPair(pairs: Int, _ round: (_ number: Int, _ storeFirst: Bool) throws -> PairedRates) throws -> PairedRates {
    // Odd, so the median is one pair's and not a mean of two.
    guard pairs > 0, pairs % 2 == 1 else { throw BenchError("pairs of rounds must be an odd number, not \(pairs)") }
    var measured: [PairedRates] = []
    for pair in 0..<pairs {
        let storeFirst = try round(2 * pair, true)
        let rawFirst = try round(2 * pair + 1, false)
        measured.append(PairedRates(joining: storeFirst, rawFirst))
    }
    measured.sort { $0.ratio < $1.ratio }
    return measured[pairs / 2]
}

/// One round of `operations` a side, the sides taking turns every `block` operations, each
/// side's time summed over its blocks: this machine's speed drifts by tens of percent
/// between consecutive rounds of a fraction of a second (a shared host, checkpoints), so two
/// rounds timed one after the other measured the drift as much as the code. A block must be
/// long enough that the switch between the loops (caches refilled) is lost in it, and short
/// enough that drift falls on both sides alike. Both sides run the same operation indices.
private func timedRound(operations: Int, block: Int, _ pair: LoopPair, storeFirst: Bool) throws -> PairedRates {
    var storeSeconds = 0.0
    var rawSeconds = 0.0
    var storeGoesFirst = storeFirst
    for start in stride(from: 0, to: operations, by: block) {
        let range = start..<min(start + block, operations)
        // Which side goes first alternates, so neither always follows the other's work.
        if storeGoesFirst {
            storeSeconds += try seconds { try pair.store(range) }
            rawSeconds += try seconds { try pair.raw(range) }
        } else {
            rawSeconds += try seconds { try pair.raw(range) }
            storeSeconds += try seconds { try pair.store(range) }
        }
        storeGoesFirst.toggle()
    }
    return PairedRates(store: Double(operations) / storeSeconds, raw: Double(operations) / rawSeconds)
}
