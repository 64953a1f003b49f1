import TabStoreKit

/// One write transaction's, or one read's, view of a server database.
///
/// Round trips are the cost on a network. A write is two: the rule's snapshot (BEGIN,
/// the set's lock and every read the rule declared, in one pipeline: PostgresSnapshot),
/// then its whole plan with the COMMIT (PostgresPlan). A read is one.
///
/// READ COMMITTED: every statement after the lock sees the state as of that statement,
/// so the reads that follow the lock (not a subquery inside it, which would keep the
/// snapshot from before the wait) see what the previous holder of the lock committed.
final class PostgresRecords {
    let connection: PostgresConnection
    let isWrite: Bool
    var server: String { connection.server }
    /// Statements waiting to go with the next round trip (a write's BEGIN).
    private var pending: [PostgresStatement] = []
    /// Whether anything (the BEGIN first) has gone to the server.
    private(set) var sentAnything = false
    /// Whether a COMMIT was sent (so a broken connection leaves the outcome unknown).
    private(set) var commitSent = false
    /// The progress the plan being committed reports once it is all answered, and the last
    /// it reported: a COMMIT found saved after its answer was lost reports the rest.
    var progressAtCommit: Int?
    var progressReported: Int?
    /// The last failure, kept so the backend can tell a retryable one.
    private(set) var failure: PostgresFailure?
    /// Called before each part of a pipeline goes to the server, with how many parts this
    /// transaction sent before (a test's way to end the connection at a chosen point).
    var beforeSendingPart: ((_ partsSent: Int) -> Void)?
    /// The part after whose sending the connection is cut, its answer lost (a test's way
    /// to lose a COMMIT's answer).
    var cutAfterSendingPart: Int?
    private var partsSent = 0
    /// A write's share of the busy timeout: each part it sends first sets `lock_timeout` to what is left.
    var lockBudget: PostgresLockBudget?

    init(connection: PostgresConnection, isWrite: Bool) {
        self.connection = connection
        self.isWrite = isWrite
        if isWrite { pending.append(PostgresStatement("BEGIN")) }
    }

    /// The most statements one round trip carries: a pipeline's results wait in socket
    /// buffers until it is read back, so a very long one (a large import) goes in parts
    /// and neither side ever blocks writing.
    static let pipelineLimit = 500

    /// Sends whatever is pending, then `statements`, in one round trip (one per
    /// `pipelineLimit` statements); returns the rows of `statements`. `sent` is told after
    /// each part how many of `statements` the server has answered.
    @discardableResult
    func send(
        _ statements: [PostgresStatement], committing: Bool = false,
        sent: ((_ through: Int) -> Void)? = nil
    ) throws(TabStoreError) -> [PostgresRows] {
        var all = pending
        pending.removeAll()
        if let lockBudget { all.append(PostgresStatement(PostgresLockBudget.statement, [lockBudget.setting()])) }
        let leading = all.count
        all += statements
        if committing { all.append(PostgresStatement("COMMIT")) }
        sentAnything = sentAnything || !all.isEmpty
        var results: [PostgresRows] = []
        do {
            var start = 0
            repeat {
                let end = min(start + Self.pipelineLimit, all.count)
                beforeSendingPart?(partsSent)
                partsSent += 1
                // Once the part holding the COMMIT goes, the outcome is the server's.
                if committing && end == all.count { commitSent = true }
                results += try connection.pipeline(Array(all[start..<end]), cuttingAfterSending: partsSent - 1 == cutAfterSendingPart)
                sent?(end - leading)
                start = end
            } while start < all.count
        } catch {
            failure = error
            throw storeError(error)
        }
        return Array(results[leading..<leading + statements.count])
    }

    /// One read, sent with whatever is pending.
    func query(_ sql: String, _ parameters: [String?] = []) throws(TabStoreError) -> PostgresRows {
        try send([PostgresStatement(sql, parameters)])[0]
    }

    /// The store's error for a failure, in the terms of this server (SQLState's table).
    func storeError(_ failure: PostgresFailure) -> TabStoreError {
        failure.meaning(in: connection.failureContext(outcomeUnknown: commitSent)).error
    }

    func readTransaction<T>(_ body: () throws(TabStoreError) -> T) throws(TabStoreError) -> T {
        // A write is one transaction already.
        guard !isWrite else { return try body() }
        pending.append(PostgresStatement("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"))
        do {
            let result = try body()
            try send([PostgresStatement("COMMIT")])
            return result
        } catch {
            // A BEGIN still pending never reached the server: nothing to roll back.
            let begun = pending.isEmpty
            pending.removeAll()
            if begun { _ = try? connection.execute("ROLLBACK") }
            throw error
        }
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

    /// A tab row read from `column` on, in `TabColumn`'s columns, at `index`: the one place
    /// the PostgreSQL backend reads a tab.
    func tabRecord(_ row: Int, from column: Int, index: Int) -> TabRecord {
        func at(_ tabColumn: TabColumn) -> Int { column + tabColumn.rawValue }
        return TabRecord(
            id: requiredInt(row, at(.id)), index: index, title: text(row, at(.title)), uuid: tabID(row, at(.uuid)),
            payload: unpackPayload(value(row, at(.payload)))
        )
    }
}

/// A text array literal: every element quoted (`"` and `\` escaped), nil as NULL.
func postgresArray(_ elements: [String?]) -> String {
    var literal = "{"
    for (offset, element) in elements.enumerated() {
        if offset > 0 { literal += "," }
        guard let element else {
            literal += "NULL"
            continue
        }
        literal += "\""
        for character in element.unicodeScalars {
            if character == "\"" || character == "\\" { literal += "\\" }
            literal.unicodeScalars.append(character)
        }
        literal += "\""
    }
    return literal + "}"
}

/// An integer array literal.
func postgresArray(_ numbers: [Int]) -> String {
    "{" + numbers.map(String.init).joined(separator: ",") + "}"
}
