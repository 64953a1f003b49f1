import TabStoreKit

/// The PostgreSQL schema's steps, embedded from `migrations/postgresql/NNNN_name.sql`
/// at build time. `migrations/postgresql/0001_tab_sets.sql` describes the version table
/// and how concurrent clients migrate.
package enum PostgresSchema {
    package static let migrations: [Migration] = embeddedMigrations
    /// The version the steps bring a database to (SQLite's steps stop earlier: a file has
    /// one writer, and needs neither step 10 nor 11).
    package static let latestVersion = migrations.last?.version ?? 0

    /// The triggers the migrations create, read from their SQL (`CREATE [CONSTRAINT]
    /// TRIGGER name`): any other trigger on tabstore's tables is someone else's.
    static let triggerNames: [String] = migrations.flatMap { migration in
        migration.sql.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            let start = words.starts(with: ["CREATE", "CONSTRAINT", "TRIGGER"]) ? 3 : words.starts(with: ["CREATE", "TRIGGER"]) ? 2 : nil
            return start.flatMap { $0 < words.count ? String(words[$0]) : nil }
        }
    }
}
