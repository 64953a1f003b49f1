import Synchronization
import Testing
import TabStoreTestSupport
@testable import TabStoreKit
@testable import TabStorePostgres

/// A server that hangs (every process stopped, its kernel still acknowledging) while a write
/// waits for it: the write ends at its request's deadline (the busy timeout and the server
/// timeout), whether the hang came before its COMMIT was sent or after, with no connect or
/// lookup after it to wait longer, and says how long it really waited.
@Suite(.enabled(if: PostgresServer.shouldRun, Comment(rawValue: PostgresServer.skipReason)), .timeLimit(.minutes(5)))
struct PostgresHungServerTests {
    /// Each request waits 5 s at most (1 s busy timeout, 4 s server timeout). A failover
    /// window of 10 s: connecting again within it to a server that never answers (4 s per
    /// try) would end the write past 15 s.
    static let options = TabStore.Options(busyTimeout: .seconds(1), serverTimeout: .seconds(4), failoverWindow: .seconds(10))
    static let deadline: Duration = .seconds(5)

    /// Once: hung as its COMMIT went out (part 1), a select waited 15 s, then two 10 s
    /// connects to look up the COMMIT's outcome, and said it had waited 15 s. Hung before its
    /// snapshot (part 0), it connected again for the failover window.
    @Test(arguments: [0, 1])
    func aWriteWhoseServerHangsEndsAtItsDeadlineSayingHowLongItWaited(part: Int) throws {
        let server = try PostgresServer.start()
        defer {
            server.resume()
            server.destroy()
        }
        let url = try server.createDatabase()
        let store = try TabStore(postgresURL: url, options: Self.options)
        try store.add(["a", "b"], to: "s", creatingSet: true)
        let backend = try #require(store.backend as? PostgresBackend)
        let paused = Mutex<ContinuousClock.Instant?>(nil)
        backend.beforeSendingPart.withLock {
            $0 = { partsSent, _ in
                guard partsSent == part, paused.withLock({ $0 == nil }) else { return }
                server.pause()
                paused.withLock { $0 = .now }
            }
        }
        var thrown: TabStoreError?
        do {
            _ = try store.select(.index(1), in: "s")
        } catch {
            thrown = error
        }
        let ended = ContinuousClock.now
        server.resume()
        backend.beforeSendingPart.withLock { $0 = nil }
        let error = try #require(thrown)
        let hung = try #require(paused.withLock { $0 })
        let waited = ended - hung
        #expect(error.code == .serverNotAnswering, "\(error)")
        // A guard, not a timing: far below what connecting again would take.
        #expect(waited < Self.deadline + .seconds(4), "waited \(waited)")
        let seconds = try #require(error.secondsWaited)
        #expect(abs(Double(seconds) - Double(waited.milliseconds) / 1000) <= 1, "said \(seconds) s, waited \(waited)")
        let outcome = part == 1 ? " while committing; the change may or may not have been saved" : "; nothing was changed"
        #expect(error.description == "\(store.location) stopped answering after \(seconds) s\(outcome)")
        // The store works again once the server does.
        #expect(try store.tabSet(named: "s").tabs.map(\.title) == ["a", "b"])
    }
}
