// The bench's app: a process that imports only TabStoreKit, as a small app does, so that
// the bench can time it and watch it (Sources/Bench/AppRows.swift):
//
//   TabStoreBenchApp first PATH SET     shows the set's first value (its tab count) and ends
//   TabStoreBenchApp observe PATH SET   says "ready", then "REVISION NANOSECONDS" (monotonic
//                                       clock) for each new value, until killed
//   TabStoreBenchApp idle               runs one task, says "ready" and waits: a bare Swift process
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
    say("ready")
    await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
default:
    say("usage: TabStoreBenchApp first|observe PATH SET, or idle")
    exit(2)
}
