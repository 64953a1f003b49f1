import TabStoreKit

/// The PostgreSQL schema's steps, embedded from `migrations/postgresql/NNNN_name.sql`
/// at build time. `migrations/postgresql/0001_tab_sets.sql` describes the version table
/// and how concurrent clients migrate.
package enum PostgresSchema {
    package static let migrations: [Migration] = embeddedMigrations
}
