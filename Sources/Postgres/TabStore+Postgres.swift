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
    /// - Parameter postgresURL: `postgresql://` or `postgres://`, as libpq takes it.
    /// - Throws: `TabStoreError.postgresLibraryMissing`, `.invalidDatabaseURL`,
    ///   `.serverUnavailable`, `.schemaTooNew`, `.notATabStore`, `.databaseNotFound`, `.server`.
    public convenience init(postgresURL: String, options: Options = Options()) throws(TabStoreError) {
        self.init(backend: try PostgresBackend(url: postgresURL, options: options), options: options)
    }

    /// Whether `location` names a PostgreSQL database (`postgresql://` or `postgres://`)
    /// rather than a file.
    public static func isPostgresURL(_ location: String) -> Bool {
        DatabaseURL.isPostgres(location)
    }
}
