#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TabStoreKit
import TabStoreLibPQ

/// One libpq connection to a PostgreSQL server.
///
/// Not `Sendable`: libpq allows one call at a time on a connection, so its owner
/// serializes access. Statements are prepared on first use and cached by SQL text, and
/// every request is one round trip: a first use sends its prepare in the same pipeline.
package final class PostgresConnection {
    /// `postgresql://user@host:port/database` as libpq resolved it; never a password.
    package let server: String
    /// The schema of tabstore's tables, the only one on this connection's search path.
    package let schema: String
    /// Whether the URL lists several servers (a primary and its standbys).
    package let isMultiHost: Bool
    /// The role the server knows this connection as.
    package private(set) var role = ""
    /// The longest a request waits for its answer before the connection is given up.
    package let requestDeadline: Duration
    /// Every wait for the server's answer to a request (connecting and waiting for
    /// notifications are not counted): what the benchmark reports.
    package private(set) var roundTrips = 0
    private let pq: tabstore_pq_functions
    private var connection: OpaquePointer?
    private let secrets: [String]
    /// SQL text -> name of the statement prepared for it on this connection.
    private var statementNames: [String: String] = [:]
    private var statementsPrepared = 0

    /// - Throws: `TabStoreError.Code.postgresLibraryMissing`, `.invalidDatabaseURL`, or
    ///   `.serverUnavailable` with each server's reason.
    package convenience init(url: String, session: PostgresSession = PostgresSession()) throws(TabStoreError) {
        try self.init(url: DatabaseURL(url), session: session)
    }

    /// Connects with `session`'s settings; `application_name` is `tabstore` unless the URL
    /// (or libpq's environment) says otherwise.
    ///
    /// - Throws: `TabStoreError.Code.postgresLibraryMissing`, or `.serverUnavailable` with
    ///   each server's reason.
    package init(url: DatabaseURL, session: PostgresSession = PostgresSession()) throws(TabStoreError) {
        let pq = try LibPQ.load().functions
        self.pq = pq
        secrets = url.secrets
        schema = url.schema
        isMultiHost = url.hostCount > 1
        requestDeadline = session.requestDeadline
        var pairs = session.keywords(for: url)
        if let refused = url.refusedPasswordFile { pairs.append(("passfile", refused.passfileInstead)) }
        // libpq's default notice processor prints to standard error, and a server that dies
        // just after its ReadyForQuery has its FATAL parsed as a notice inside the connect
        // itself. So the processor that drops notices goes on first: the connection is
        // started (nothing is read yet), given it, then made from the start again by
        // PQreset, which keeps it and libpq's own handling of hosts and timeouts.
        let connection = withCStringArray(pairs.map(\.0)) { keywords in
            withCStringArray(pairs.map(\.1)) { values in pq.PQconnectStartParams(keywords, values, 1) }
        }
        guard let connection else {
            throw TabStoreError(.serverUnavailable(server: url.server, reason: "libpq could not allocate a connection"))
        }
        _ = pq.PQsetNoticeProcessor(connection, tabstore_pq_ignore_notice, nil)
        if pq.PQstatus(connection) != TABSTORE_PQ_CONNECTION_BAD { pq.PQreset(connection) }
        let host = text(pq.PQhost(connection))
        // Several hosts: name them all, as the URL does, whichever one answered.
        server = host.isEmpty || isMultiHost ? url.server : serverName(
            user: text(pq.PQuser(connection)), host: host, port: text(pq.PQport(connection)), database: text(pq.PQdb(connection)))
        guard pq.PQstatus(connection) == TABSTORE_PQ_CONNECTION_OK else {
            var reason = hidingSecrets(ConnectFailure.reasons(text(pq.PQerrorMessage(connection))), secrets)
            if let refused = url.refusedPasswordFile, reason.contains("no password supplied") { reason += "; " + refused.reason }
            pq.PQfinish(connection)
            throw TabStoreError(.serverUnavailable(server: server, reason: reason))
        }
        role = text(pq.PQuser(connection))
        // Every wait is ours (poll with a deadline), never one inside libpq.
        _ = pq.PQsetnonblocking(connection, 1)
        self.connection = connection
    }

    deinit {
        close()
    }

    /// Ends the connection; later calls fail with `.connectionBroken`.
    package func close() {
        if let connection { pq.PQfinish(connection) }
        connection = nil
        statementNames = [:]
    }

    /// Whether the connection is closed or broken: nothing more can be done on it.
    package var isBroken: Bool {
        guard let connection else { return true }
        return pq.PQstatus(connection) != TABSTORE_PQ_CONNECTION_OK
    }

    /// The connection's socket, to wait on with poll(); -1 once closed.
    package var socket: Int32 {
        connection.map { pq.PQsocket($0) } ?? -1
    }

    /// A setting the server reported (`server_encoding`, `in_hot_standby`...); nil when it
    /// did not, or the connection is closed.
    package func parameter(_ name: String) -> String? {
        connection.flatMap { pq.PQparameterStatus($0, name) }.map { String(cString: $0) }
    }

    /// What a failure on this connection means, given whether a COMMIT was sent.
    package func failureContext(outcomeUnknown: Bool) -> PostgresFailureContext {
        var context = PostgresFailureContext(server: server, outcomeUnknown: outcomeUnknown)
        context.isStandby = parameter("in_hot_standby") == "on"
        context.isMultiHost = isMultiHost
        context.role = role
        return context
    }

    /// The store's error for a failure on this connection (SQLState's table).
    package func storeError(_ failure: PostgresFailure, outcomeUnknown: Bool = false) -> TabStoreError {
        failure.meaning(in: failureContext(outcomeUnknown: outcomeUnknown)).error
    }

    /// The server process serving this connection (what `pg_terminate_backend` takes).
    package var processID: Int32 {
        connection.map { pq.PQbackendPID($0) } ?? 0
    }

    /// Runs one statement in one round trip.
    ///
    /// - Throws: `PostgresFailure`; after a server error the connection is still usable.
    package func execute(_ sql: String, _ parameters: [String?] = []) throws(PostgresFailure) -> PostgresRows {
        try pipeline([PostgresStatement(sql, parameters)])[0]
    }

    /// Runs a script of several statements without parameters (a migration step) in one
    /// round trip, through the simple query protocol; its results are not kept.
    ///
    /// - Throws: `PostgresFailure`; after a server error the connection is still usable.
    /// `sql` with every `{schema}.` naming this connection's schema: tabstore's statements
    /// name each of its tables in the one schema the URL chose, whatever a search path says.
    package func qualified(_ sql: String) -> String {
        sql.contains("{schema}.") ? sql.replacing("{schema}.", with: quotedIdentifier(schema) + ".") : sql
    }

    package func executeScript(_ sql: String) throws(PostgresFailure) {
        guard !sql.utf8.contains(0) else {
            throw PostgresFailure(.server(sqlState: "22021", message: "the script contains a NUL character", constraint: nil), sql: sql)
        }
        guard let connection, pq.PQstatus(connection) == TABSTORE_PQ_CONNECTION_OK else { throw brokenFailure() }
        roundTrips += 1
        let deadline = ContinuousClock.now + requestDeadline
        guard pq.PQsendQuery(connection, qualified(sql)) == 1 else { throw abandon() }
        try flush(connection, until: deadline)
        var firstError: PostgresFailure?
        while true {
            try awaitResult(connection, until: deadline)
            guard let result = pq.PQgetResult(connection) else { break }
            defer { pq.PQclear(result) }
            switch pq.PQresultStatus(result) {
            case TABSTORE_PQ_COMMAND_OK, TABSTORE_PQ_TUPLES_OK, TABSTORE_PQ_EMPTY_QUERY:
                break
            default:
                if firstError == nil { firstError = serverFailure(result, sql: sql) }
            }
        }
        guard pq.PQstatus(connection) == TABSTORE_PQ_CONNECTION_OK else { throw brokenFailure() }
        if let firstError { throw firstError }
    }

    /// Sends every statement, then waits once for all their results (libpq pipeline mode).
    ///
    /// On an error the server skips the statements after it; the first error is thrown
    /// once every result is read and the connection is out of pipeline mode, so it is
    /// usable again (a transaction the statements were in is aborted: roll it back).
    ///
    /// - Throws: `PostgresFailure`.
    /// `cuttingAfterSending` (a test's way to lose an answer) shuts the socket down once
    /// the pipeline is sent, so the server runs it but its answer never arrives.
    package func pipeline(
        _ statements: [PostgresStatement], cuttingAfterSending: Bool = false
    ) throws(PostgresFailure) -> [PostgresRows] {
        guard !statements.isEmpty else { return [] }
        for statement in statements { try check(statement) }
        guard let connection, pq.PQstatus(connection) == TABSTORE_PQ_CONNECTION_OK else { throw brokenFailure() }
        guard pq.PQenterPipelineMode(connection) == 1 else { throw abandon() }
        // Non-blocking: libpq buffers what it cannot write yet, and `flush` sends it.
        var commands: [Command] = []
        var preparing: [String: String] = [:]
        for (index, statement) in statements.enumerated() {
            var name = statementNames[statement.sql] ?? preparing[statement.sql]
            if name == nil {
                statementsPrepared += 1
                let newName = "tabstore_\(statementsPrepared)"
                guard pq.PQsendPrepare(connection, newName, qualified(statement.sql), 0, nil) == 1 else { throw abandon() }
                commands.append(.prepare(sql: statement.sql, name: newName))
                preparing[statement.sql] = newName
                name = newName
            }
            let sent = withCStringArray(statement.parameters) { parameters in
                pq.PQsendQueryPrepared(connection, name, Int32(statement.parameters.count), parameters, nil, nil, 0)
            }
            guard sent == 1 else { throw abandon() }
            commands.append(.run(statement: index))
        }
        guard pq.PQpipelineSync(connection) == 1 else { throw abandon() }
        roundTrips += 1
        let deadline = ContinuousClock.now + requestDeadline
        try flush(connection, until: deadline)
        if cuttingAfterSending { shutdown(pq.PQsocket(connection), Int32(SHUT_RDWR)) }
        return try readResults(connection, commands, statements, until: deadline)
    }

    private enum Command {
        case prepare(sql: String, name: String)
        case run(statement: Int)
    }

    /// Reads results up to the pipeline's sync: each command's end with a NULL, the
    /// sync as PIPELINE_SYNC.
    private func readResults(_ connection: OpaquePointer, _ commands: [Command], _ statements: [PostgresStatement],
                             until deadline: ContinuousClock.Instant) throws(PostgresFailure) -> [PostgresRows] {
        var rows = [PostgresRows?](repeating: nil, count: statements.count)
        var firstError: PostgresFailure?
        var command = 0
        var endsInARow = 0
        var synced = false
        while !synced {
            try awaitResult(connection, until: deadline)
            guard let result = pq.PQgetResult(connection) else {
                // Two ends in a row: nothing is pending, so the sync will never come.
                endsInARow += 1
                if endsInARow > 1 || pq.PQstatus(connection) != TABSTORE_PQ_CONNECTION_OK { break }
                command += 1
                continue
            }
            endsInARow = 0
            defer { pq.PQclear(result) }
            let status = pq.PQresultStatus(result)
            switch status {
            case TABSTORE_PQ_PIPELINE_SYNC:
                synced = true
            case TABSTORE_PQ_PIPELINE_ABORTED:
                break
            case TABSTORE_PQ_COMMAND_OK, TABSTORE_PQ_TUPLES_OK, TABSTORE_PQ_EMPTY_QUERY:
                guard command < commands.count else { break }
                switch commands[command] {
                case let .prepare(sql, name): statementNames[sql] = name
                case let .run(statement): rows[statement] = self.rows(of: result)
                }
            default:
                guard firstError == nil, command < commands.count else { break }
                let sql: String
                switch commands[command] {
                case let .prepare(text, _): sql = text
                case let .run(statement): sql = statements[statement].sql
                }
                let failure = serverFailure(result, sql: sql)
                // A statement whose plan the server dropped, or can no longer use after
                // a schema change, is prepared afresh next time.
                if case let .server(sqlState, _, _) = failure.kind, SQLState.dropsPreparedStatement(sqlState) {
                    statementNames[sql] = nil
                }
                firstError = failure
            }
        }
        guard pq.PQstatus(connection) == TABSTORE_PQ_CONNECTION_OK else { throw brokenFailure() }
        guard synced, pq.PQexitPipelineMode(connection) == 1 else { throw abandon() }
        if let firstError { throw firstError }
        let complete = rows.compactMap { $0 }
        guard complete.count == statements.count else { throw abandon() }
        return complete
    }

    // MARK: Waiting, with a deadline

    /// Sends what libpq holds back, taking in what the server sends meanwhile so that
    /// neither side can block on a full buffer.
    private func flush(_ connection: OpaquePointer, until deadline: ContinuousClock.Instant) throws(PostgresFailure) {
        while true {
            switch pq.PQflush(connection) {
            case 0: return
            case 1:
                try waitFor(connection, Int16(POLLIN | POLLOUT), until: deadline)
                guard pq.PQconsumeInput(connection) == 1 else { throw abandon() }
            default: throw abandon()
            }
        }
    }

    /// Waits until libpq holds a whole result, so that PQgetResult does not block.
    private func awaitResult(_ connection: OpaquePointer, until deadline: ContinuousClock.Instant) throws(PostgresFailure) {
        while pq.PQisBusy(connection) == 1 {
            try waitFor(connection, Int16(POLLIN), until: deadline)
            guard pq.PQconsumeInput(connection) == 1 else { throw brokenFailure() }
        }
    }

    /// poll() for `events` on the socket. At the deadline the server has not answered for
    /// the whole of it: the connection is closed (where its request stands is unknown), and
    /// the failure says how long the request really waited (its deadline came
    /// `requestDeadline` after it was sent).
    private func waitFor(_ connection: OpaquePointer, _ events: Int16, until deadline: ContinuousClock.Instant) throws(PostgresFailure) {
        var descriptor = pollfd(fd: pq.PQsocket(connection), events: events, revents: 0)
        while true {
            let now = ContinuousClock.now
            let left = (deadline - now).milliseconds
            guard left > 0 else {
                close()
                throw PostgresFailure(.noAnswer(after: requestDeadline + (now - deadline)), sql: nil)
            }
            let ready = poll(&descriptor, 1, Int32(clamping: left))
            if ready > 0 { return }
            if ready < 0 && errno != EINTR { throw abandon() }
        }
    }

    /// Refuses what libpq would silently cut or cannot send, as the server would.
    private func check(_ statement: PostgresStatement) throws(PostgresFailure) {
        if statement.sql.utf8.contains(0) || statement.parameters.contains(where: { $0?.utf8.contains(0) == true }) {
            throw PostgresFailure(.server(sqlState: "22021", message: "invalid byte sequence for encoding \"UTF8\": 0x00", constraint: nil),
                                  sql: statement.sql)
        }
        if statement.parameters.count > 65535 {
            throw PostgresFailure(.server(sqlState: "54000", message: "number of parameters must be between 0 and 65535", constraint: nil),
                                  sql: statement.sql)
        }
    }

    // MARK: Notifications

    /// `LISTEN` on `channel` (any text: it is quoted as an identifier).
    ///
    /// - Throws: `PostgresFailure`.
    package func listen(_ channel: String) throws(PostgresFailure) {
        _ = try execute("LISTEN \"" + channel.replacing("\"", with: "\"\"") + "\"")
    }

    /// The payloads of the notifications that arrived, waiting up to `milliseconds` for
    /// the first when none has yet (0: do not wait); empty when none came, or when `other`
    /// became readable first.
    ///
    /// - Throws: `PostgresFailure` when the connection breaks.
    package func waitForNotifications(timeout milliseconds: Int, orReadable other: Int32? = nil) throws(PostgresFailure) -> [String] {
        guard let connection, pq.PQstatus(connection) == TABSTORE_PQ_CONNECTION_OK else { throw brokenFailure() }
        try consumeInput(connection)
        var payloads = takeNotifications(connection)
        guard payloads.isEmpty, milliseconds > 0 else { return payloads }
        var descriptors = [pollfd(fd: pq.PQsocket(connection), events: Int16(POLLIN), revents: 0)]
        if let other { descriptors.append(pollfd(fd: other, events: Int16(POLLIN), revents: 0)) }
        var ready: Int32
        repeat {
            ready = poll(&descriptors, nfds_t(descriptors.count), Int32(clamping: milliseconds))
        } while ready < 0 && errno == EINTR
        if ready > 0, descriptors[0].revents != 0 {
            try consumeInput(connection)
            payloads = takeNotifications(connection)
        }
        return payloads
    }

    private func consumeInput(_ connection: OpaquePointer) throws(PostgresFailure) {
        guard pq.PQconsumeInput(connection) == 1, pq.PQstatus(connection) == TABSTORE_PQ_CONNECTION_OK else {
            throw brokenFailure()
        }
    }

    private func takeNotifications(_ connection: OpaquePointer) -> [String] {
        var payloads: [String] = []
        while let notification = pq.PQnotifies(connection) {
            payloads.append(text(notification.pointee.extra))
            pq.PQfreemem(notification)
        }
        return payloads
    }

    // MARK: Results and failures

    private func rows(of result: OpaquePointer) -> PostgresRows {
        let count = Int(pq.PQntuples(result))
        let columns = Int(pq.PQnfields(result))
        var values: [String?] = []
        values.reserveCapacity(count * columns)
        for row in 0..<Int32(count) {
            for column in 0..<Int32(columns) {
                if pq.PQgetisnull(result, row, column) == 1 {
                    values.append(nil)
                } else {
                    let bytes = UnsafeRawPointer(pq.PQgetvalue(result, row, column)!).assumingMemoryBound(to: UInt8.self)
                    let length = Int(pq.PQgetlength(result, row, column))
                    values.append(String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self))
                }
            }
        }
        return PostgresRows(count: count, columns: columns, affectedRows: Int(text(pq.PQcmdTuples(result))) ?? 0, values: values)
    }

    private func serverFailure(_ result: OpaquePointer, sql: String) -> PostgresFailure {
        let field = { (code: Int) -> String? in self.pq.PQresultErrorField(result, Int32(code)).map { String(cString: $0) } }
        let message = field(Int(TABSTORE_PQ_DIAG_MESSAGE_PRIMARY)) ?? firstLine(text(pq.PQresultErrorMessage(result)))
        return PostgresFailure(.server(sqlState: field(Int(TABSTORE_PQ_DIAG_SQLSTATE)) ?? "", message: message,
                                       constraint: field(Int(TABSTORE_PQ_DIAG_CONSTRAINT_NAME))), sql: sql)
    }

    private func brokenFailure() -> PostgresFailure {
        guard let connection else { return PostgresFailure(.connectionBroken(message: "the connection was closed"), sql: nil) }
        let message = hidingSecrets(firstLine(text(pq.PQerrorMessage(connection))), secrets)
        return PostgresFailure(.connectionBroken(message: message.isEmpty ? "the connection broke" : message), sql: nil)
    }

    /// Gives up on a connection whose state libpq could not take where we asked (a send
    /// refused, a pipeline that will not end): it is closed, so the failure is true.
    private func abandon() -> PostgresFailure {
        let failure = brokenFailure()
        close()
        return failure
    }
}

/// A C string libpq returned, "" for NULL.
private func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
    pointer.map { String(cString: $0) } ?? ""
}

/// Calls `body` with a C array of copies of `strings` (nil stays NULL), freed afterwards.
private func withCStringArray<Result>(_ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result) -> Result {
    let copies = strings.map { $0.map { UnsafePointer(strdup($0)!) } } + [nil]
    defer { for copy in copies { free(UnsafeMutablePointer(mutating: copy)) } }
    return copies.withUnsafeBufferPointer { body($0.baseAddress!) }
}
