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

/// The median rate of each side over `rounds` rounds of `operations` each, after a
/// warm-up of each (statements prepared, pages cached, WAL created). Within a round the
/// sides take turns every `block` operations, each side's time summed over its blocks:
/// this machine's speed drifts by tens of percent between consecutive rounds of a
/// fraction of a second (a shared host, checkpoints), so two rounds timed one after the
/// other measured the drift as much as the code. A block must be long enough that the
/// switch between the loops (caches refilled) is lost in it, and short enough that drift
/// falls on both sides alike. Each side is given the operations' indices, the same ones.
func interleavedRates(
    rounds: Int, operations: Int, block: Int,
    store: (Range<Int>) throws -> Void, raw: (Range<Int>) throws -> Void
) throws -> (store: Double, raw: Double) {
    // A whole round each, so that no timed round is the one that prepares the statements,
    // caches the pages and grows the WAL.
    try store(0..<operations)
    try raw(0..<operations)
    var storeRates: [Double] = []
    var rawRates: [Double] = []
    var turn = 0
    for _ in 0..<rounds {
        var storeSeconds = 0.0
        var rawSeconds = 0.0
        for start in stride(from: 0, to: operations, by: block) {
            let range = start..<min(start + block, operations)
            // Which side goes first alternates, so neither always follows the other's work.
            if turn % 2 == 0 {
                rawSeconds += try seconds { try raw(range) }
                storeSeconds += try seconds { try store(range) }
            } else {
                storeSeconds += try seconds { try store(range) }
                rawSeconds += try seconds { try raw(range) }
            }
            turn += 1
        }
        storeRates.append(Double(operations) / storeSeconds)
        rawRates.append(Double(operations) / rawSeconds)
    }
    return (median(storeRates), median(rawRates))
}
