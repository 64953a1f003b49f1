/// What a test throws when a condition it waits for does not come in time: the test fails
/// with the sentence, saying what it waited for.
public struct ConditionNotMet: Error, CustomStringConvertible {
    public let description: String
}

/// Returns once `condition` holds, checking it every few milliseconds; throws
/// ``ConditionNotMet`` naming `what` when `timeout` passes first. The timeout is a guard
/// against a hang, not a timing: it is long, since the parallel runner on two cores can keep
/// a task from a thread for many seconds.
///
/// For example:
/// ```swift
/// try await waitFor("the write to wait for the lock") { lockWaitsBegun(store) > 0 }
/// ```
nonisolated(nonsending) public func waitFor(
    _ what: String, timeout: Duration = .seconds(60), _ condition: () throws -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while try !condition() {
        guard clock.now < deadline else {
            throw ConditionNotMet(description: "waited \(timeout) for \(what), in vain")
        }
        try await Task.sleep(for: .milliseconds(2))
    }
}
