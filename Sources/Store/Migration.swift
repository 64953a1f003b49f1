/// One step of the schema, embedded from `migrations/NNNN_name.sql` at build time.
package struct Migration: Sendable, Equatable {
    /// The schema version the database has once this step is applied (`PRAGMA user_version`).
    package let version: Int
    package let name: String
    package let sql: String

    /// Public to the package so that TabStorePostgres's generated migrations compile.
    package init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }
}

extension Migration {
    /// Every migration this binary knows, in the order they apply.
    package static let all: [Migration] = embeddedMigrations

    /// The schema version a database has once fully migrated.
    package static var latestVersion: Int { all.last?.version ?? 0 }
}
