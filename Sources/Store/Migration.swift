/// One step of the schema, embedded from `migrations/NNNN_name.sql` at build time.
package struct Migration: Sendable, Equatable {
    /// The schema version the database has once this step is applied (`PRAGMA user_version`).
    package let version: Int
    package let name: String
    package let sql: String
}

extension Migration {
    /// Every migration this binary knows, in the order they apply.
    package static let all: [Migration] = embeddedMigrations

    /// The schema version a database has once fully migrated.
    package static var latestVersion: Int { all.last?.version ?? 0 }
}
