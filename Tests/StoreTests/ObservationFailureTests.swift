import Testing
import TabStoreSQLite
@testable import TabStoreKit

/// An observer learns that the journal could not be read; it is never handed old history
/// instead, and observing never keeps its store alive.
@Suite struct ObservationFailureTests {
    let folder = TemporaryFolder()
    let options = TabStore.Options(durability: .normal, changePollInterval: .milliseconds(10))

    /// Breaks journal reads from outside the store, as a damaged or foreign file would.
    private func dropJournal(at path: String) throws {
        var handle: OpaquePointer?
        defer { sqlite3_close(handle) }
        #expect(sqlite3_open(path, &handle) == SQLITE_OK)
        #expect(sqlite3_exec(handle, "DROP TABLE change", nil, nil, nil) == SQLITE_OK)
    }

    @Test func aJournalReadThatFailsEndsTheStreamWithItsError() async throws {
        let path = folder.file()
        let store = try TabStore(path: path, options: options)
        let changes = store.changes(in: "main")
        try await store.write { try $0.add(["A"], to: "main", creatingSet: true) }
        try dropJournal(at: path)
        var received: [TabEvent] = []
        let error = await #expect(throws: TabStoreError.self) {
            for try await change in changes { received.append(change.event) }
        }
        #expect(received == [.added(titles: ["A"], index: 0)])
        guard case let .sqlite(_, _, message, sql)? = error?.reason else {
            Issue.record("expected an SQLite error, got \(String(describing: error))")
            return
        }
        #expect(message.contains("no such table: change"))
        // The statement is kept for debugging, and left out of the sentence a person reads.
        #expect(sql?.contains("FROM change") == true)
        #expect(error.map { "\($0)" }?.contains("SELECT") == false)
    }

    @Test func subscribingWhenTheJournalCannotBeReadThrowsInsteadOfReplayingHistory() async throws {
        let path = folder.file()
        let store = try TabStore(path: path, options: options)
        try await store.write { try $0.add(["A"], to: "main", creatingSet: true) }
        try dropJournal(at: path)
        var received: [TabChange] = []
        await #expect(throws: TabStoreError.self) {
            for try await change in store.changes() { received.append(change) }
        }
        #expect(received.isEmpty)
    }

    @Test func anObservedStoreIsReleasedWhenItsOwnerLetsGo() async throws {
        var store: TabStore? = try TabStore(path: folder.file(), options: options)
        weak let released = store
        let changes = try #require(store).changes()
        store = nil
        #expect(released == nil)
        var count = 0
        for try await _ in changes { count += 1 }
        #expect(count == 0)
    }
}

/// A value observer learns that its value could not be read.
@Suite struct ValueObservationFailureTests {
    let folder = TemporaryFolder()

    @Test func aFailedReadEndsTheValueSequenceWithItsError() async throws {
        let path = folder.file()
        let store = try TabStore(path: path, options: TabStore.Options(durability: .normal))
        try await store.write { try $0.add(["A"], to: "main", creatingSet: true) }
        var values = store.observe("main").makeAsyncIterator()
        #expect(try await values.next()?.map(picture) == ["*A"])
        var handle: OpaquePointer?
        #expect(sqlite3_open(path, &handle) == SQLITE_OK)
        #expect(sqlite3_exec(handle, "DROP TABLE change", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(handle)
        let error = await #expect(throws: TabStoreError.self) { _ = try await values.next() }
        guard case let .sqlite(_, _, message, _)? = error?.reason else {
            Issue.record("expected an SQLite error, got \(String(describing: error))")
            return
        }
        #expect(message.contains("no such table: change"))
    }
}
