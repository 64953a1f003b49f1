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

/// The rates of the round whose store/raw ratio is the median of `rounds`, each round on
/// new loops that `makeStore` and `makeRaw` build (new databases, connections and
/// statements), each running a whole round as a warm-up first (statements prepared, pages
/// cached, the WAL grown to its size), then a timed round in turns (`timedRound`). Which
/// side is built, warmed up and timed first alternates round by round.
///
/// Why new loops each round, and the median of the rounds' ratios: timing the same raw loop
/// on both sides (an A/A run) showed one pair keeping its lead through a run, by up to 3%
/// (where its files and memory landed), and the median of each side's rates taken apart
/// paired one round's store with another round's raw.
func pairedRates(
    rounds: Int, operations: Int, block: Int,
    makeStore: (_ round: Int) throws -> TimedLoop, makeRaw: (_ round: Int) throws -> TimedLoop
) throws -> PairedRates {
    try medianRound(rounds: rounds) { round in
        func warmedUp(_ make: (Int) throws -> TimedLoop) throws -> TimedLoop {
            let loop = try make(round)
            try loop(0..<operations)
            return loop
        }
        let storeFirst = round % 2 == 0
        let pair: LoopPair
        if storeFirst {
            let store = try warmedUp(makeStore)
            pair = LoopPair(store: store, raw: try warmedUp(makeRaw))
        } else {
            let raw = try warmedUp(makeRaw)
            pair = LoopPair(store: try warmedUp(makeStore), raw: raw)
        }
        return try timedRound(operations: operations, block: block, pair, storeFirst: storeFirst)
    }
}

/// As `pairedRates`, on the one pair `pair` for every round (a server's databases, too slow
/// to make anew each round), warmed up by a whole round each first.
func pairedRates(rounds: Int, operations: Int, block: Int, _ pair: LoopPair) throws -> PairedRates {
    try pair.store(0..<operations)
    try pair.raw(0..<operations)
    return try medianRound(rounds: rounds) { round in
        try timedRound(operations: operations, block: block, pair, storeFirst: round % 2 == 0)
    }
}

/// The round (of `rounds`, an odd number) whose ratio is the median: its two rates, so the
/// figure's ratio is one a round measured.
private func medianRound(rounds: Int, _ round: (Int) throws -> PairedRates) rethrows -> PairedRates {
    var measured: [PairedRates] = []
    for number in 0..<rounds { measured.append(try round(number)) }
    measured.sort { $0.ratio < $1.ratio }
    return measured[measured.count / 2]
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
