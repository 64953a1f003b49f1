import TabStoreKit

extension TabStore {
    /// Opens the tabstore database on a PostgreSQL server, creating its tables when the
    /// database has none (unless `options.createsMissingDatabase` is false) and bringing its
    /// schema up to date. The same API, rules, events and errors as a file, plus what a
    /// network adds (`.serverUnavailable`, `.connectionLost`, `.server`).
    ///
    /// For example:
    /// ```swift
    /// let store = try TabStore(postgresURL: "postgresql://app@db.example/tabs")
    /// try store.select(.title("Reviews"), in: "store-detail")
    /// ```
    /// libpq (Debian `libpq5`) is loaded when the first such store opens; an app that never
    /// opens one never loads it. The password comes from the URL, `PGPASSWORD` or
    /// `~/.pgpass`, as libpq reads them; no message shows it.
    ///
    /// Every connection speaks UTF8 and uses one schema: `public`, or the first one a
    /// `search_path` in the URL's `options` names. A call whose server goes away before it
    /// committed anything connects again and runs again within `options.failoverWindow`;
    /// every request has a deadline (the busy timeout and `options.serverTimeout`). A URL
    /// of several hosts (a primary and its standbys) connects to the one that takes writes.
    ///
    /// - Parameter postgresURL: `postgresql://` or `postgres://`, as libpq takes it.
    /// - Throws: `TabStoreError.Code.postgresLibraryMissing`, `.invalidDatabaseURL`,
    ///   `.serverUnavailable`, `.schemaTooNew`, `.notATabStore`, `.databaseNotFound`,
    ///   `.notUTF8`, `.schemaNotFound`, `.permissionDenied`, `.readOnly`, `.standby`,
    ///   `.serverNotAnswering`, `.server`; `.invalidOption` for options no store can work
    ///   with (nothing is loaded or connected).
    public convenience init(postgresURL: String, options: Options = Options()) throws(TabStoreError) {
        if let problem = options.problem { throw problem }
        self.init(backend: try PostgresBackend(url: postgresURL, options: options), options: options)
    }

    /// Whether `location` names a PostgreSQL database (`postgresql://` or `postgres://`)
    /// rather than a file.
    public static func isPostgresURL(_ location: String) -> Bool {
        DatabaseURL.isPostgres(location)
    }
}

extension TabStore {
    /// Opens the store once tabstore's tables exist in the database, waiting for them: a
    /// `watch` may start before the first `add`. A connection of its own listens for the
    /// notification every write sends, and looks again each second anyway; while the
    /// server is away it keeps trying.
    ///
    /// - Throws: what opening throws, but `.databaseNotFound` and the server being away.
    package static func waitingForTables(postgresURL: String, options: Options) throws(TabStoreError) -> TabStore {
        let url = try DatabaseURL(postgresURL)
        let session = PostgresSession(options)
        var listening: PostgresConnection?
        while true {
            do throws(TabStoreError) {
                let connection: PostgresConnection
                if let listening, !listening.isBroken {
                    connection = listening
                } else {
                    var window = FailoverWindow(options.failoverWindow)
                    connection = try PostgresSlot.connect(url, session: session, window: &window)
                    do { try connection.listen(PostgresListener.channel) } catch { throw connection.storeError(error) }
                    listening = connection
                }
                try PostgresMigrator(connection: connection).migrate(creating: false)
                return try TabStore(postgresURL: postgresURL, options: options)
            } catch .databaseNotFound {
                _ = try? listening?.waitForNotifications(timeout: 1000)
            } catch {
                guard PostgresServerStatus.isAway(error) else { throw error }
                listening = nil
                sleep(milliseconds: 1000)
            }
        }
    }
}

extension TabStore {
    /// `url` with any password it holds (in its user info, `password=` or `sslpassword=`)
    /// left out: what a process shows of a URL it was given.
    package static func postgresURLWithoutPassword(_ url: String) -> String {
        DatabaseURL.withoutPassword(url)
    }
}
