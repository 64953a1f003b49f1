import Dispatch
import Synchronization
import Testing
import TabStoreKit
import TabStoreTestSupport
@testable import TabStorePostgres

/// Writes to different sets run side by side (no lock common to all writes), and the
/// journal keeps each set's order: a watcher of every set, and one of a single set, get
/// exactly what each writer wrote, in its order, once, however the commits interleave.
@Suite(.enabled(if: PostgresServer.shouldRun, Comment(rawValue: PostgresServer.skipReason)))
struct ConcurrentWritersTests {
    /// What a watcher records of a change.
    static func entry(_ change: TabChange) -> String {
        "\(change.revision) \(change.event.kind.rawValue)"
    }

    /// Random edits of one set through a store of its own; what each journaled, in order.
    static func edit(_ store: TabStore, set: String, seed: UInt64, edits: Int) throws -> [String] {
        var random = SplitMix64(seed: seed)
        var written: [String] = []
        var next = 0
        for _ in 0..<edits {
            let count = try store.tabSet(named: set).tabs.count
            let (a, b) = (random.below(count), random.below(count))
            next += 1
            let journaled: (revision: Int, kind: TabEvent.Kind?) = switch random.below(count < 3 ? 2 : 6) {
            case 0, 1: try store.add(["t\(next)"], to: set, at: a).journaled
            case 2: try store.remove([.index(a)], from: set).journaled
            case 3: try store.move(.index(a), to: b, in: set).journaled
            case 4: try store.rename(.index(a), to: "r\(next)", in: set).journaled
            default: try store.select(.index(a == 0 ? 1 : 0), in: set).journaled
            }
            if let kind = journaled.kind { written.append("\(journaled.revision) \(kind.rawValue)") }
        }
        return written
    }

    /// Collects a stream's changes until it ends.
    final class Collector: Sendable {
        let changes = Mutex<[TabChange]>([])

        init(_ stream: TabStoreStream<TabChange>) {
            Task {
                for try await change in stream { self.changes.withLock { $0.append(change) } }
            }
        }

        func waitFor(count: Int) async throws -> [TabChange] {
            try await TabStoreTestSupport.waitFor("\(count) changes") { changes.withLock { $0.count } >= count }
            // A window in which a change handed out twice would show: nothing marks that
            // none is coming, so this wait is the check itself.
            try await Task.sleep(for: .milliseconds(200))
            return changes.withLock { $0 }
        }
    }

    /// Runs `body` on `count` threads of their own at once (writers block on the network:
    /// not on the few threads of the concurrency pool, which the collectors need).
    static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let group = DispatchGroup()
            for number in 0..<count {
                DispatchQueue.global().async(group: group) { body(number) }
            }
            group.notify(queue: .global()) { done.resume() }
        }
    }

    @Test(arguments: [7, 8] as [UInt64])
    func concurrentWritersToDifferentSetsLoseAndReorderNothing(seed: UInt64) async throws {
        let url = try PostgresServer.shared().createDatabase()
        let writers = 6, edits = 40
        let names = (0..<writers).map { "set \($0)" }
        // Watching from before the sets are made: an observer that starts while other
        // transactions run (other tests') may also get changes committed just before.
        let watcher = try TabStore(postgresURL: url)
        let everySet = Collector(watcher.changes())
        let oneSetWatcher = try TabStore(postgresURL: url)
        let oneSet = Collector(oneSetWatcher.changes(in: names[0]))
        let setup = try TabStore(postgresURL: url)
        for name in names { try await setup.write { try $0.add(["a", "b", "c"], to: name, creatingSet: true) } }
        let written = Mutex<[String: [String]]>([:])
        let failures = Mutex<[String]>([])
        await Self.onThreads(writers) { writer in
            do {
                let store = try TabStore(postgresURL: url)
                let entries = try ["1 added"] + Self.edit(store, set: names[writer], seed: seed &* 31 &+ UInt64(writer), edits: edits)
                written.withLock { $0[names[writer]] = entries }
            } catch {
                failures.withLock { $0.append("\(names[writer]): \(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let expected = written.withLock { $0 }
        let total = expected.values.map(\.count).reduce(0, +)
        let seen = try await everySet.waitFor(count: total)
        #expect(seen.count == total)
        for name in names {
            #expect(seen.filter { $0.setName == name }.map(Self.entry) == expected[name], "\(name)")
        }
        let seenInOne = try await oneSet.waitFor(count: expected[names[0]]?.count ?? 0)
        #expect(seenInOne.map(Self.entry) == expected[names[0]])
        withExtendedLifetime((watcher, oneSetWatcher)) {}
    }

    /// A write to one set does not wait for a write to another that holds its lock; a
    /// write to the locked set waits, and gives up at the busy timeout.
    @Test func aWriteWaitsOnlyForWritesToItsOwnSet() throws {
        let url = try PostgresServer.shared().createDatabase()
        let setup = try TabStore(postgresURL: url)
        try setup.add(["a", "b"], to: "held", creatingSet: true)
        try setup.add(["a", "b"], to: "free", creatingSet: true)
        // Another client inside a write to "held": it holds that set's lock.
        let holder = try PostgresConnection(url: url)
        _ = try holder.pipeline([PostgresStatement("BEGIN"), PostgresStatement(PostgresLock.names, ["public", "{held}"])])
        var options = TabStore.Options()
        options.busyTimeout = .milliseconds(300)
        let store = try TabStore(postgresURL: url, options: options)
        #expect(try store.select(.index(1), in: "free").set.revision == 2)
        #expect(thrownError { () throws(TabStoreError) in _ = try store.select(.index(1), in: "held") }
            == TabStoreError(.busy(path: (store.backend as! PostgresBackend).location)))
        _ = try holder.execute("ROLLBACK")
        #expect(try store.select(.index(1), in: "held").set.revision == 2)
    }

    /// A transaction that journals a change and commits after a later one (it took its
    /// journal id first) is not skipped: the reader holds the later one back until the
    /// earlier has ended, then hands out both, the earlier first.
    @Test func aChangeCommittedLateIsNotSkipped() async throws {
        let url = try PostgresServer.shared().createDatabase()
        let watcher = try TabStore(postgresURL: url)
        let seen = Collector(watcher.changes())
        let setup = try TabStore(postgresURL: url)
        try await setup.write { try $0.add(["a", "b"], to: "late", creatingSet: true) }
        try await setup.write { try $0.add(["a", "b"], to: "soon", creatingSet: true) }
        // A write with a journal row (the lowest id from now on), still running: it holds
        // its set's lock, as every write does before it takes a transaction id.
        let late = try PostgresConnection(url: url, session: PostgresSession(idleInTransactionTimeout: .zero))
        _ = try late.pipeline([
            PostgresStatement("BEGIN"),
            PostgresStatement(PostgresLock.names, [late.schema, "{gone}"]),
            PostgresStatement("INSERT INTO change (set_name, revision, kind, at) VALUES ('gone', 7, 'set-removed', 0)"),
        ])
        try await setup.write { try $0.select(.index(1), in: "soon") }
        // The journal holds the later change, and the reader leaves it for later.
        #expect(try TabStore(postgresURL: url).history(of: "soon").map(Self.entry) == ["2 selected", "1 added"])
        _ = try late.execute("COMMIT")
        #expect(try await seen.waitFor(count: 4).map { $0.setName + " " + Self.entry($0) }
            == ["late 1 added", "soon 1 added", "gone 7 set-removed", "soon 2 selected"])
        withExtendedLifetime(watcher) {}
    }
}

extension TabSetEdit {
    /// The revision it left and the kind of event it journaled (nil: none, a move in place).
    var journaled: (revision: Int, kind: TabEvent.Kind?) { (set.revision, event?.kind) }
}

extension SelectionChange {
    /// A reselection journals nothing.
    var journaled: (revision: Int, kind: TabEvent.Kind?) { (revision, updates.isEmpty ? nil : .selectionChanged) }
}
