import Foundation

/// A primary and a streaming standby that follows it (made with `pg_basebackup -R`), the
/// primary waiting for the standby at every commit (`synchronous_standby_names = '*'`),
/// as the README's failover section asks. A test kills the primary and promotes the standby.
public final class ReplicatedPostgres: @unchecked Sendable {
    public let primary: PostgresServer
    public let standby: PostgresServer

    /// Starts both and waits until the standby streams synchronously.
    public static func start() throws(PostgresServerError) -> ReplicatedPostgres {
        // Synchronous once the standby streams: a commit before that would wait for ever.
        let primary = try PostgresServer.start(settings: ["synchronous_commit": "on"])
        do {
            // After a promotion the standby serves alone: it must not wait for a standby of its own.
            let standby = try PostgresServer(settings: ["synchronous_standby_names": "", "synchronous_commit": "on"], link: nil)
            try standby.run(primary.binaries + "/pg_basebackup",
                            ["-h", "127.0.0.1", "-p", String(primary.port), "-U", "postgres", "-D", standby.dataFolder,
                             "-R", "--no-sync", "-X", "stream"], asServer: true)
            try standby.launch()
            try primary.psql("postgres", "ALTER SYSTEM SET synchronous_standby_names = '*'")
            try primary.psql("postgres", "SELECT pg_reload_conf()")
            let pair = ReplicatedPostgres(primary: primary, standby: standby)
            try pair.waitForSynchronousStandby()
            return pair
        } catch {
            primary.destroy()
            throw error
        }
    }

    private init(primary: PostgresServer, standby: PostgresServer) {
        self.primary = primary
        self.standby = standby
    }

    /// `postgresql://postgres@127.0.0.1:PRIMARY,127.0.0.1:STANDBY/database` and `query`.
    public func url(database: String, query: String = "") -> String {
        "postgresql://postgres@127.0.0.1:\(primary.port),127.0.0.1:\(standby.port)/\(database)" + (query.isEmpty ? "" : "?" + query)
    }

    /// A new database, made on the primary (the standby replays it): its name.
    public func createDatabase() throws(PostgresServerError) -> String {
        let url = try primary.createDatabase()
        return String(url.split(separator: "/").last ?? "")
    }

    /// Makes the standby a primary and waits until it takes writes.
    public func promoteStandby() throws(PostgresServerError) {
        try standby.run(primary.binaries + "/pg_ctl", ["promote", "-w", "-t", "30", "-D", standby.dataFolder], asServer: true)
    }

    private func waitForSynchronousStandby() throws(PostgresServerError) {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if (try? primary.psql("postgres", "SELECT sync_state FROM pg_stat_replication")) == "sync\n" { return }
            usleep(50_000)
        }
        throw PostgresServerError("the standby did not stream synchronously within 60 s")
    }

    public func destroy() {
        standby.destroy()
        primary.destroy()
    }
}
