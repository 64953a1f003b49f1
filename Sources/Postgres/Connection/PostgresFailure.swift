import TabStoreKit

/// Why a statement failed: an error the server reported, or a connection that broke.
package struct PostgresFailure: Error, Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
        /// An error PostgreSQL reported (or, for a request it would refuse the same way,
        /// the one it would report), with its SQLSTATE, primary message and, for a
        /// constraint violation, the constraint's name.
        case server(sqlState: String, message: String, constraint: String?)
        /// The connection is gone (server stopped, backend terminated, network lost);
        /// `message` is libpq's first line.
        case connectionBroken(message: String)
    }

    package let kind: Kind
    /// The statement that failed, when one did.
    package let sql: String?

    package init(_ kind: Kind, sql: String?) {
        self.kind = kind
        self.sql = sql
    }

    /// A serialization failure (40001) or deadlock (40P01): the whole transaction can be
    /// run again.
    package var isRetryable: Bool {
        guard case let .server(sqlState, _, _) = kind else { return false }
        return sqlState == "40001" || sqlState == "40P01"
    }

    /// The error the store reports. `outcomeUnknown`: whether a COMMIT had been sent when
    /// the connection broke.
    package func storeError(server: String, outcomeUnknown: Bool) -> TabStoreError {
        switch kind {
        case .connectionBroken:
            return .connectionLost(server: server, outcomeUnknown: outcomeUnknown)
        case let .server(sqlState, message, _):
            return .server(server: server, sqlState: sqlState, message: message, sql: sql)
        }
    }
}
