#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a tabstore connection asks of libpq and of the server. Everything is sent when it
/// connects (the server's part in the startup packet's `options`), so no round trip is
/// spent on settings.
package struct PostgresSession: Sendable, Hashable {
    /// `lock_timeout`: how long a statement waits for another client's lock (the busy timeout).
    package var lockTimeout: Duration
    /// `synchronous_commit`: whether COMMIT waits for the WAL flush (and a synchronous standby).
    package var synchronousCommit: Bool
    /// How long the server may take to answer beyond waiting for a lock: connecting
    /// (`connect_timeout`), unacknowledged data (`tcp_user_timeout`), and each request.
    package var serverTimeout: Duration

    /// `idle_in_transaction_session_timeout`: a transaction left idle this long is ended by
    /// the server, releasing its row locks, so a client cut off mid-transaction holds its set
    /// for no longer. tabstore's own transactions are never idle between their round trips
    /// for more than microseconds. Zero: never.
    package var idleInTransactionTimeout: Duration

    package init(
        lockTimeout: Duration = .seconds(5), synchronousCommit: Bool = true, serverTimeout: Duration = .seconds(10),
        idleInTransactionTimeout: Duration = .seconds(2)
    ) {
        self.lockTimeout = lockTimeout
        self.synchronousCommit = synchronousCommit
        self.serverTimeout = serverTimeout
        self.idleInTransactionTimeout = idleInTransactionTimeout
    }

    /// How long one request may wait for its answer: a lock wait, then the server's time.
    var requestDeadline: Duration { max(lockTimeout, .zero) + max(serverTimeout, .milliseconds(1)) }

    /// libpq keywords and values for `url`, in the order libpq takes them: where a keyword
    /// comes twice the later wins, and the URL (expanded from `dbname`) comes in between.
    /// Before it, defaults a URL or libpq's environment may override; after it, what
    /// tabstore needs whatever they say.
    func keywords(for url: DatabaseURL) -> [(String, String)] {
        var pairs = [("fallback_application_name", "tabstore")]
        let seconds = max(Int((serverTimeout.milliseconds + 999) / 1000), 2)
        if getenv("PGCONNECT_TIMEOUT") == nil { pairs.append(("connect_timeout", String(seconds))) }
        // A dead link is found within about the server timeout even on an idle connection
        // (a `watch` waiting for notifications); the kernel's defaults take two hours.
        pairs += [
            ("keepalives", "1"), ("keepalives_idle", String(min(seconds, 5))), ("keepalives_interval", "2"),
            ("keepalives_count", "3"), ("tcp_user_timeout", String(max(serverTimeout.milliseconds, 1000))),
        ]
        // Several hosts are a primary and its standbys: writes need the primary.
        if url.hostCount > 1, getenv("PGTARGETSESSIONATTRS") == nil {
            pairs.append(("target_session_attrs", "read-write"))
        }
        pairs.append(("dbname", url.text))
        // UTF8 whatever PGCLIENTENCODING or the URL says: tabstore's strings are UTF-8.
        pairs.append(("client_encoding", "UTF8"))
        pairs.append(("options", serverOptions(after: url.options, schema: url.schema)))
        return pairs
    }

    /// The server settings as `-c name=value` switches after the URL's own `options`
    /// (the later of two switches wins). The search path is the one schema tabstore uses;
    /// the others are defaults, and a setting the URL's options make is the URL's.
    func serverOptions(after given: String?, schema: String) -> String {
        let named = Set(StartupOptions.settings(given ?? "").map(\.name))
        let defaults = [
            ("lock_timeout", String(max(lockTimeout.milliseconds, 1)) + "ms"),
            ("synchronous_commit", synchronousCommit ? "on" : "off"),
            ("idle_in_transaction_session_timeout", String(max(idleInTransactionTimeout.milliseconds, 0)) + "ms"),
        ]
        let settings = defaults.filter { !named.contains($0.0) } + [("search_path", quotedIdentifier(schema))]
        let switches = settings.map { "-c " + StartupOptions.escaped($0.0 + "=" + $0.1) }
        return ([given].compactMap { $0 }.filter { !$0.isEmpty } + switches).joined(separator: " ")
    }
}

/// `name` as a PostgreSQL identifier in double quotes (`"` doubled).
func quotedIdentifier(_ name: String) -> String {
    "\"" + name.replacing("\"", with: "\"\"") + "\""
}
