import TabStoreKit

/// Why a statement failed: an error the server reported, a connection that broke, or a
/// server that stopped answering.
package struct PostgresFailure: Error, Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
        /// An error PostgreSQL reported (or, for a request it would refuse the same way,
        /// the one it would report), with its SQLSTATE, primary message and, for a
        /// constraint violation, the constraint's name.
        case server(sqlState: String, message: String, constraint: String?)
        /// The connection is gone (server stopped, backend terminated, network lost);
        /// `message` is libpq's first line.
        case connectionBroken(message: String)
        /// No answer came within the request's deadline; the connection was closed.
        case noAnswer(after: Duration)
    }

    package let kind: Kind
    /// The statement that failed, when one did.
    package let sql: String?

    package init(_ kind: Kind, sql: String?) {
        self.kind = kind
        self.sql = sql
    }

    /// A serialization failure (40001) or deadlock (40P01): the whole transaction can be
    /// run again at once.
    package var isRetryable: Bool {
        guard case let .server(sqlState, _, _) = kind else { return false }
        return SQLState.meaning(sqlState, constraint: nil, in: PostgresFailureContext(server: "")).retry == .now
    }

    /// The error the store reports, and whether the transaction may run again.
    package func meaning(in context: PostgresFailureContext) -> (error: TabStoreError, retry: PostgresRetry) {
        // Once a COMMIT was sent, nothing may run again before its outcome is known.
        let again: PostgresRetry = context.outcomeUnknown ? .settle : .reconnect
        switch kind {
        case .connectionBroken:
            return (TabStoreError(.connectionLost(server: context.server, outcomeUnknown: context.outcomeUnknown)), again)
        case let .noAnswer(after):
            // The time waited to the nearest second: a wait ends a few milliseconds past
            // its deadline, which is not one second more.
            let seconds = max(Int((after.milliseconds + 500) / 1000), 1)
            // Never again within the call, not even to look up a COMMIT's outcome: the
            // request's deadline is the longest a call waits for a server that is silent,
            // and a new connection to it would only wait longer.
            return (TabStoreError(.serverNotAnswering(server: context.server, seconds: seconds, outcomeUnknown: context.outcomeUnknown)), .never)
        case let .server(sqlState, message, constraint):
            var meaning = SQLState.meaning(sqlState, constraint: constraint, in: context)
            if meaning.error == nil { meaning.error = TabStoreError(.server(server: context.server, sqlState: sqlState, message: message, sql: sql)) }
            return (meaning.error!, meaning.retry)
        }
    }

    /// The error the store reports. `outcomeUnknown`: whether a COMMIT had been sent when
    /// the connection broke.
    package func storeError(server: String, outcomeUnknown: Bool) -> TabStoreError {
        meaning(in: PostgresFailureContext(server: server, outcomeUnknown: outcomeUnknown)).error
    }
}

/// What a failure's meaning depends on besides its SQLSTATE.
package struct PostgresFailureContext: Sendable {
    package var server: String
    /// Whether a COMMIT had been sent when the failure came.
    package var outcomeUnknown = false
    /// Whether the server said it is a standby (`in_hot_standby`).
    package var isStandby = false
    /// Whether the URL lists several servers, so that a new connection may reach another.
    package var isMultiHost = false
    package var role = ""

    package init(server: String, outcomeUnknown: Bool = false) {
        self.server = server
        self.outcomeUnknown = outcomeUnknown
    }
}

/// How a failed transaction may be run again.
package enum PostgresRetry: Sendable, Hashable {
    case never
    /// At once: the server asked for it, or another client created a set meanwhile.
    case now
    /// On a new connection, within the failover window: nothing was committed, and the
    /// server went away or turned out to be a standby.
    case reconnect
    /// The connection went away after the COMMIT was sent: on a new connection, look up
    /// whether the write was applied (its change id), then run it again if it was not.
    case settle
}

/// The names of constraints whose violations tabstore reads, as the migrations declare them.
package enum PostgresConstraint {
    /// `tab_set.name` is unique: two clients created one set at once.
    package static let setNameUnique = "tab_set_name_unique"
}

/// What tabstore makes of each SQLSTATE it knows: the one table. Any other is reported
/// as `.server` with the server's message.
package enum SQLState {
    /// The store's error (nil: the server's own message) and how the transaction may run again.
    static func meaning(_ sqlState: String, constraint: String?, in context: PostgresFailureContext)
        -> (error: TabStoreError?, retry: PostgresRetry) {
        let server = context.server
        switch sqlState {
        // serialization_failure, deadlock_detected: the server asks for a new try.
        case "40001", "40P01":
            return (nil, .now)
        // unique_violation of a set's name: another client created it; a new try finds it.
        case "23505" where constraint == PostgresConstraint.setNameUnique:
            return (nil, .now)
        // lock_not_available: `lock_timeout` (the busy timeout) ran out.
        case "55P03":
            return (TabStoreError(.busy(path: server)), .never)
        // disk_full.
        case "53100":
            return (TabStoreError(.diskFull(path: server)), .never)
        // read_only_sql_transaction: a standby, or a database set read-only. Through several
        // hosts a new connection reaches the primary (target_session_attrs=read-write).
        case "25006":
            // The server answered with an error: the transaction did not commit, even when
            // its COMMIT was sent in the same pipeline (a write is refused at its first write).
            let error: TabStoreError = context.isStandby ? TabStoreError(.standby(server: server)) : TabStoreError(.readOnly(path: server))
            return (error, context.isMultiHost ? .reconnect : .never)
        // object_not_in_prerequisite_state from a standby: a write's lock, which a server
        // in recovery refuses ("while recovery is in progress"); the same as 25006 there.
        case "55000" where context.isStandby:
            return (TabStoreError(.standby(server: server)), context.isMultiHost ? .reconnect : .never)
        // insufficient_privilege: the backend names the privilege (PostgresPrivileges).
        case "42501":
            return (TabStoreError(.permissionDenied(server: server, role: context.role, privilege: "", object: "")), .never)
        // admin_shutdown, crash_shutdown, cannot_connect_now: the server is going away or
        // not yet back; the connection ends with it.
        case "57P01", "57P02", "57P03":
            return (TabStoreError(.connectionLost(server: server, outcomeUnknown: context.outcomeUnknown)),
                    context.outcomeUnknown ? .settle : .reconnect)
        default:
            return (nil, .never)
        }
    }

    /// A statement the server dropped (invalid_sql_statement_name) or can no longer use
    /// after a schema change (feature_not_supported: "cached plan must not change result
    /// type"): it is prepared afresh next time.
    static func dropsPreparedStatement(_ sqlState: String) -> Bool {
        sqlState == "26000" || sqlState == "0A000"
    }
}

/// libpq's message for a connection that could not be made, read as one line per server.
///
/// libpq gives no SQLSTATE for these: its own words, and the server's, tell a server that
/// may be back in a moment (refused, starting, a standby) from a refusal that stays
/// (no such database, a wrong password). Both are PostgreSQL's English messages, as libpq
/// and servers give them unless told to translate.
package enum ConnectFailure {
    package enum Kind: Sendable, Hashable {
        /// Worth trying again within the failover window.
        case transient
        /// The server answered and refused: trying again will not help.
        case permanent
        case unknown
    }

    /// Each server's reason, on one line: libpq writes one paragraph per address it tried,
    /// each starting `connection to server`; hints (indented lines) are left out.
    static func reasons(_ message: String) -> String {
        let lines = message.split(separator: "\n").map { firstLine(String($0)) }.filter { !$0.isEmpty }
        let perServer = lines.filter { $0.hasPrefix("connection to server") }
        var seen = Set<String>()
        let kept = (perServer.isEmpty ? Array(lines.prefix(1)) : perServer).filter { seen.insert($0).inserted }
        return kept.joined(separator: "; ")
    }

    private static let transientPhrases = [
        "Connection refused", "timeout expired", "Connection timed out", "No route to host", "Network is unreachable",
        "Connection reset by peer", "server closed the connection unexpectedly", "could not receive data from server",
        "could not send data to server", "session is read-only", "server is in hot standby mode",
        "the database system is starting up", "the database system is shutting down",
        "the database system is not yet accepting connections", "the database system is not accepting connections",
        "the database system is in recovery mode", "too many clients already", "remaining connection slots are reserved",
    ]

    private static let permanentPhrases = [
        "does not exist", "authentication failed", "permission denied", "is not permitted to log in",
        "no pg_hba.conf entry", "pg_hba.conf rejects connection",
    ]

    /// What `reason` (as `reasons` gives it) says of the servers: transient when any may be
    /// back, permanent when every one refused for good.
    package static func kind(of reason: String) -> Kind {
        let servers = reason.split(separator: "; connection to server")
        if servers.contains(where: { server in transientPhrases.contains { server.contains($0) } }) { return .transient }
        if servers.allSatisfy({ server in permanentPhrases.contains { server.contains($0) } }) { return .permanent }
        return .unknown
    }
}
