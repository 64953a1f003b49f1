// The bench's app: a process that imports only TabStoreKit, as a small app does, so that
// the bench can time it and watch it (Sources/Bench/AppRows.swift):
//
//   TabStoreBenchApp first PATH SET     shows the set's first value (its tab count) and ends
//   TabStoreBenchApp observe PATH SET   says "ready", then "REVISION NANOSECONDS" (monotonic
//                                       clock) for each new value, until killed
//   TabStoreBenchApp idle               runs one task, says "ready" and waits: a bare Swift process
//
// The last two, asked "cost" on standard input, says "cost NANOSECONDS SWITCHES": the CPU
// time and context switches of the whole process so far, threads that ended included.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Observation
import TabStoreKit

/// Writes a line at once (standard output is a pipe: no buffering).
func say(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
}

func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// Answers "cost" on standard input, from a thread of its own that sleeps in read().
func answerCostQuestions() {
    var thread = pthread_t()
    let made = pthread_create(&thread, nil, { _ in
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(0, &byte, 1) == 1 {
            guard byte == UInt8(ascii: "\n") else {
                line.append(byte)
                continue
            }
            if line == Array("cost".utf8) {
                var usage = rusage()
                getrusage(RUSAGE_SELF.rawValue, &usage)
                let nanoseconds = (Int(usage.ru_utime.tv_sec) + Int(usage.ru_stime.tv_sec)) * 1_000_000_000
                    + (Int(usage.ru_utime.tv_usec) + Int(usage.ru_stime.tv_usec)) * 1_000
                say("cost \(nanoseconds) \(usage.ru_nvcsw + usage.ru_nivcsw)")
            }
            line = []
        }
        return nil
    }, nil)
    if made != 0 {
        say("cannot start a thread")
        exit(1)
    }
}

let arguments = CommandLine.arguments
switch (arguments.count, arguments.count > 1 ? arguments[1] : "") {
case (4, "first"):
    do {
        let store = try TabStore(path: arguments[2])
        let bar = TabBarModel(store: store, setName: arguments[3])
        say("\(bar.tabs.count)")
    } catch {
        say("cannot open the tabs: \(error)")
        exit(1)
    }
case (4, "observe"):
    do {
        let store = try TabStore(path: arguments[2])
        let bar = TabBarModel(store: store, setName: arguments[3])
        answerCostQuestions()
        say("ready")
        while true {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                withObservationTracking { _ = bar.revision } onChange: { continuation.resume() }
            }
            say("\(bar.revision) \(monotonicNanoseconds())")
        }
    } catch {
        say("cannot open the tabs: \(error)")
        exit(1)
    }
case (2, "idle"):
    // A bare Swift process that has run one task, as every app has: libdispatch's worker
    // pool (Swift's global executor on Linux) then runs its monitor once a second.
    await Task.detached {}.value
    answerCostQuestions()
    say("ready")
    await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
default:
    say("usage: TabStoreBenchApp first|observe PATH SET, or idle")
    exit(2)
}
