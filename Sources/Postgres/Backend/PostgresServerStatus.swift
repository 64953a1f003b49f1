import Synchronization
import TabStoreKit

/// What an observer of a server is told: it went away (and why), or it answers again.
package enum ServerStatusChange: Sendable, Equatable {
    case away(TabStoreError)
    case back
}

/// Whether the server answers, as the journal reads and the listener find it; tells its
/// handler each time that changes, so a watcher hears of an outage once and of its end once.
final class PostgresServerStatus: Sendable {
    private struct State {
        var isAway = false
        var handler: (@Sendable (ServerStatusChange) -> Void)?
    }

    private let state = Mutex(State())

    func onChange(_ handler: @escaping @Sendable (ServerStatusChange) -> Void) {
        state.withLock { $0.handler = handler }
    }

    func answered() {
        change(away: false, .back)
    }

    func wentAway(_ error: TabStoreError) {
        change(away: true, .away(error))
    }

    private func change(away: Bool, _ change: ServerStatusChange) {
        let handler = state.withLock { state -> (@Sendable (ServerStatusChange) -> Void)? in
            guard state.isAway != away else { return nil }
            state.isAway = away
            return state.handler
        }
        handler?(change)
    }

    /// Whether `error` says the server is away for now (it may come back), rather than
    /// refusing for good (the database dropped, the login or a privilege revoked).
    static func isAway(_ error: TabStoreError) -> Bool {
        switch error.reason {
        case .connectionLost, .serverNotAnswering:
            return true
        case let .serverUnavailable(_, reason):
            return ConnectFailure.kind(of: reason) != .permanent
        default:
            return false
        }
    }
}

extension TabStore {
    /// Calls `handler` when the server of a PostgreSQL store stops answering its observers
    /// (once per outage) and when it answers again; never for a file.
    package func onServerStatusChange(_ handler: @escaping @Sendable (ServerStatusChange) -> Void) {
        (backend as? PostgresBackend)?.status.onChange(handler)
    }
}
