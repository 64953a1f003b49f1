import TabStoreKit

/// One write transaction's, or one read's, view of a server database, answering the
/// operations the tab rules are built from.
///
/// Round trips are the cost on a network, so a write sends its statements in pipelines:
/// locking a set sends BEGIN, the lock and the reads of everything an edit may need (its
/// tabs, its newest removed tab, its name's revision) in one round trip; the writes wait
/// in `pending` and go with the final read of the set and the COMMIT in a second one.
/// A read of something a pending write touched sends the writes first, so a rule never
/// sees a stale answer, only a slower one.
///
/// READ COMMITTED: every statement after the lock sees the state as of that statement,
/// so the reads that follow the lock (not a subquery inside it, which would keep the
/// snapshot from before the wait) see what the previous holder of the lock committed.
final class PostgresRecords: TabRecords {
    let connection: PostgresConnection
    let isWrite: Bool
    var server: String { connection.server }
    /// Statements waiting to be sent with the next round trip; `true` for a write whose
    /// affected rows count as rows written.
    private(set) var pending: [(statement: PostgresStatement, isWrite: Bool)] = []
    /// Sets this write has locked, by name: what was read after the lock, until a write touches it.
    var locked: [ExactName: LockedSet] = [:]
    /// Rows inserted, updated or deleted by the statements sent so far.
    private(set) var rowsWritten = 0
    /// Whether anything (the BEGIN first) has gone to the server.
    private(set) var sentAnything = false
    /// Whether a COMMIT was sent (so a broken connection leaves the outcome unknown).
    private(set) var commitSent = false
    /// The last failure, kept so the backend can tell a retryable one.
    private(set) var failure: PostgresFailure?

    /// What a write read of one set right after locking it.
    struct LockedSet {
        /// nil: no such set (nothing to lock); re-read once a write touched the set row.
        var record: SetRecord?
        var recordIsCurrent = true
        /// nil once a write touched the set's tabs.
        var tabs: [TabRecord]?
        var lastClosed: ClosedTabRecord??
        var nameRevision: Int?
        private var titleIndex: [ExactName: Int]?

        init(record: SetRecord?, tabs: [TabRecord]?, lastClosed: ClosedTabRecord??, nameRevision: Int?) {
            self.record = record
            self.tabs = tabs
            self.lastClosed = lastClosed
            self.nameRevision = nameRevision
        }

        mutating func tab(titled title: String) -> TabRecord? {
            guard let tabs else { return nil }
            if titleIndex == nil {
                var index: [ExactName: Int] = [:]
                index.reserveCapacity(tabs.count)
                for (offset, tab) in tabs.enumerated() { index[ExactName(tab.title)] = offset }
                titleIndex = index
            }
            return titleIndex?[ExactName(title)].map { tabs[$0] }
        }
    }

    init(connection: PostgresConnection, isWrite: Bool) {
        self.connection = connection
        self.isWrite = isWrite
        if isWrite { enqueue("BEGIN", [], isWrite: false) }
    }

    // MARK: Sending

    func enqueue(_ sql: String, _ parameters: [String?], isWrite: Bool = true) {
        pending.append((PostgresStatement(sql, parameters), isWrite))
    }

    /// The most statements one round trip carries.
    static let pipelineLimit = 500

    /// Sends the pending statements and `reads` in one round trip (one per 500 statements
    /// for a longer run); returns the reads' rows.
    @discardableResult
    func send(_ reads: [PostgresStatement], committing: Bool = false) throws(TabStoreError) -> [PostgresRows] {
        var statements = pending.map(\.statement) + reads
        if committing {
            statements.append(PostgresStatement("COMMIT"))
            commitSent = true
        }
        let writes = pending.map(\.isWrite)
        pending.removeAll()
        sentAnything = sentAnything || !statements.isEmpty
        var results: [PostgresRows] = []
        do {
            // A pipeline's results wait in socket buffers until it is read back: a very
            // long one (a large import) goes in parts, so neither side ever blocks writing.
            var start = 0
            repeat {
                let end = min(start + Self.pipelineLimit, statements.count)
                results += try connection.pipeline(Array(statements[start..<end]))
                start = end
            } while start < statements.count
        } catch {
            failure = error
            throw storeError(error)
        }
        for (offset, isWrite) in writes.enumerated() where isWrite {
            rowsWritten += results[offset].affectedRows
        }
        return Array(results[writes.count..<writes.count + reads.count])
    }

    /// One read, sent with whatever is pending.
    func query(_ sql: String, _ parameters: [String?] = []) throws(TabStoreError) -> PostgresRows {
        try send([PostgresStatement(sql, parameters)])[0]
    }

    /// Sends what is pending and the COMMIT, unless this write already committed.
    func commit() throws(TabStoreError) {
        guard isWrite, !commitSent else { return }
        try send([], committing: true)
    }

    /// The store's error for a failure, in the terms of this server (SQLState's table).
    func storeError(_ failure: PostgresFailure) -> TabStoreError {
        failure.meaning(in: connection.failureContext(outcomeUnknown: commitSent)).error
    }

    func readTransaction<T>(_ body: () throws(TabStoreError) -> T) throws(TabStoreError) -> T {
        // A write is one transaction already.
        guard !isWrite else { return try body() }
        enqueue("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", [], isWrite: false)
        do {
            let result = try body()
            try send([PostgresStatement("COMMIT")])
            return result
        } catch {
            // A BEGIN still pending never reached the server: nothing to roll back (as a
            // write refused before its first round trip sends no ROLLBACK).
            let begun = pending.isEmpty
            pending.removeAll()
            if begun { _ = try? connection.execute("ROLLBACK") }
            throw error
        }
    }

    // MARK: Forgetting what writes made stale

    /// A write to tab rows: no set's cached tabs can be trusted.
    func tabsChanged() {
        for name in locked.keys { locked[name]?.tabs = nil }
    }

    /// A write to the set row `setID`: its record must be read again.
    func setRowChanged(_ setID: Int) {
        for (name, set) in locked where set.record?.id == setID {
            locked[name]?.recordIsCurrent = false
        }
    }

    func lockedSet(id setID: Int) -> LockedSet? {
        locked.values.first { $0.record?.id == setID }
    }
}

/// Whether `text` holds a NUL character, which PostgreSQL's text cannot: no name or title
/// stored equals it, so a lookup of it finds nothing (as on a file) without asking.
func cannotBeStored(_ text: String) -> Bool {
    text.utf8.contains(0)
}

/// Parameters as text.
extension Int {
    var text: String? { String(self) }
}

extension PostgresRows {
    func requiredInt(_ row: Int, _ column: Int) -> Int { int(row, column) ?? 0 }
    func text(_ row: Int, _ column: Int) -> String { value(row, column) ?? "" }
    func tabID(_ row: Int, _ column: Int) -> TabID { value(row, column).flatMap(TabID.init) ?? .unknown }
}
