import Testing
import TabStoreKit
import TabStoreTestSupport
@testable import TabStorePostgres

/// A journal row is read once no transaction that could still add a row below it is
/// running: one that holds a set lock of the journal's schema. Transactions of other
/// schemas or databases on the server, and those that are not tabstore's writes, hold no
/// reader back: a store's own write reaches its observers at once on a busy server.
@Suite(.enabled(if: PostgresServer.shouldRun, Comment(rawValue: PostgresServer.skipReason)))
struct JournalHorizonTests {
    /// A transaction that has its id, begun before the store's next write, and that id;
    /// left open for as long as the test takes.
    static func begin(on url: String, locking names: [String]? = nil) throws -> (connection: PostgresConnection, id: Int) {
        let connection = try PostgresConnection(url: url, session: PostgresSession(idleInTransactionTimeout: .zero))
        var statements = [PostgresStatement("BEGIN")]
        if let names { statements.append(PostgresStatement(PostgresLock.names, [connection.schema, postgresArray(names)])) }
        _ = try connection.pipeline(statements)
        let id = try #require(try connection.execute("SELECT pg_catalog.pg_current_xact_id()::text").int(0, 0))
        return (connection, id)
    }

    static func revisions(_ read: (changes: [(id: Int, change: TabChange)], heldBack: Bool)) -> [Int] {
        read.changes.map(\.change.revision)
    }

    @Test func onlyATransactionHoldingASetLockOfTheSchemaHoldsTheJournalBack() throws {
        let server = try PostgresServer.shared()
        let url = try server.createDatabase()
        let store = try TabStore(postgresURL: url)
        try store.add(["a", "b"], to: "main", creatingSet: true)
        let reader = PostgresRecords(connection: try PostgresConnection(url: url), isWrite: false)
        let start = try reader.lastChangeID()
        #expect(Self.revisions(try reader.changes(after: start, inSets: nil)) == [])

        // Running since before the write, with a transaction id: in another database, and in
        // this one with no lock. Neither holds the write back, nor moves the start before it.
        let otherDatabase = try Self.begin(on: try server.createDatabase())
        let unlocked = try Self.begin(on: url)
        try store.select(.index(1), in: "main")
        let read = try reader.changes(after: start, inSets: nil)
        #expect(Self.revisions(read) == [2])
        #expect(!read.heldBack)
        #expect(Self.revisions(try reader.changes(after: start, inSets: ["main"])) == [2])
        let afterWrite = try reader.lastChangeID()
        #expect(afterWrite >= read.changes[0].id)
        #expect(try reader.changes(after: afterWrite, inSets: nil).changes.isEmpty)

        // A writer of another set of this schema that has its id may still add a row below
        // the next write: that write is held back until it ends, and the start stays below it.
        let writer = try Self.begin(on: url, locking: ["other"])
        try store.select(.index(0), in: "main")
        let held = try reader.changes(after: read.changes[0].id, inSets: nil)
        #expect(Self.revisions(held) == [])
        #expect(held.heldBack)
        let startDuringWriter = try reader.lastChangeID()
        #expect(startDuringWriter == writer.id - 1)
        _ = try writer.connection.execute("COMMIT")
        let released = try reader.changes(after: read.changes[0].id, inSets: nil)
        #expect(Self.revisions(released) == [3])
        #expect(!released.heldBack)
        #expect(Self.revisions(try reader.changes(after: startDuringWriter, inSets: nil)) == [3])
        withExtendedLifetime((otherDatabase, unlocked)) {}
    }

    /// What an observer sees of it: a write of this store is its next value when the write
    /// returns, while another database's transaction runs (the shared test server's state).
    @Test(.timeLimit(.minutes(5)))
    func aStoresOwnWriteIsItsObserversNextValueWhileAnotherDatabaseWrites() async throws {
        let server = try PostgresServer.shared()
        let store = try TabStore(postgresURL: try server.createDatabase())
        try await store.write { try $0.add(["A", "B", "C"], to: "main", creatingSet: true) }
        var values = store.observe("main").makeAsyncIterator()
        #expect(try await values.next()??.revision == 1)
        let otherDatabase = try Self.begin(on: try server.createDatabase())
        for index in [1, 2] { try await store.write { try $0.select(.index(index), in: "main") } }
        #expect(try await values.next()??.revision == 3)
        withExtendedLifetime(otherDatabase) {}
    }

    /// A writer in the middle of ending still holds the journal back. PostgreSQL marks a
    /// committing transaction ended in its process before it lets the locks go, and the
    /// lock table gives each lock the virtual id its process has at the moment the lock is
    /// read: a look at that moment can show the writer's transaction id lock with its
    /// virtual id and its set lock with "n/0". Given that view of a real running writer,
    /// the horizon is the writer's transaction, as it is with the lock table as it stands.
    @Test func aWriterWhoseLocksShowItEndingStillHoldsTheJournalBack() throws {
        let url = try PostgresServer.shared().createDatabase()
        let store = try TabStore(postgresURL: url)
        try store.add(["a", "b"], to: "main", creatingSet: true)
        // Older than the writer and still running: another database's, as other tests'
        // are on the shared server. It holds nothing back.
        let older = try Self.begin(on: try PostgresServer.shared().createDatabase())
        let writer = try Self.begin(on: url, locking: ["slow"])
        let reader = try PostgresConnection(url: url)
        _ = try reader.execute(
            """
            CREATE TABLE seen_locks AS SELECT locktype, mode, granted, pid, virtualtransaction, transactionid, database, classid, objsubid
            FROM pg_catalog.pg_locks
            """
        )
        let ended = try reader.execute(
            """
            UPDATE seen_locks SET virtualtransaction = split_part(virtualtransaction, '/', 1) || '/0'
            WHERE pid = $1 AND locktype = 'advisory' AND objsubid = 2
            """, [String(writer.connection.processID)]
        )
        #expect(ended.affectedRows == 1)
        for lockTable in ["seen_locks", "pg_catalog.pg_locks"] {
            let horizon = try reader.execute("SELECT \(PostgresRecords.journalHorizon(lockTable: lockTable))::text")
            #expect(horizon.int(0, 0) == writer.id, "\(lockTable)")
        }
        // A later write of another set is left for later.
        try store.select(.index(1), in: "main")
        let records = PostgresRecords(connection: reader, isWrite: false)
        let read = try records.changes(after: writer.id - 1, inSets: nil)
        #expect(Self.revisions(read) == [])
        #expect(read.heldBack)
        withExtendedLifetime(older) {}
    }
}
