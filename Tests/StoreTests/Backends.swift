import Testing
import TabStoreTestSupport
@testable import TabStoreKit
@testable import TabStorePostgres

/// The backends the rule suites run against: `@Test(arguments: StoreBackend.allCases)`
/// runs a test once on each, so the rules are written and tested once.
enum StoreBackend: CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres

    /// The backends that run here: PostgreSQL where a server can start, and where
    /// TABSTORE_REQUIRE_POSTGRES=1 requires it (then a server that cannot start fails
    /// each postgres case instead of skipping it).
    static let allCases: [StoreBackend] = PostgresServer.shouldRun ? [.sqlite, .postgres] : [.sqlite]

    var testDescription: String {
        switch self {
        case .sqlite: "sqlite"
        case .postgres: "postgres"
        }
    }

    /// A new empty store of its own: in memory, or on a fresh server database.
    func makeStore(options: TabStore.Options = .init()) throws -> TabStore {
        switch self {
        case .sqlite: try TabStore(path: ":memory:", options: options)
        case .postgres: try TabStore(postgresURL: try PostgresServer.shared().createDatabase(), options: options)
        }
    }

    /// A new empty database that several stores (connections) can open: a file in
    /// `folder` (which the caller keeps until the test ends), or a fresh server database.
    func makeDatabase(in folder: TemporaryFolder) throws -> StoreDatabase {
        switch self {
        case .sqlite: StoreDatabase(backend: self, location: folder.file())
        case .postgres: StoreDatabase(backend: self, location: try PostgresServer.shared().createDatabase())
        }
    }
}

/// One database of a backend, opened as often as a test needs.
struct StoreDatabase {
    let backend: StoreBackend
    /// A file's path or a server database's URL.
    let location: String

    func open(options: TabStore.Options = .init()) throws -> TabStore {
        switch backend {
        case .sqlite: try TabStore(path: location, options: options)
        case .postgres: try TabStore(postgresURL: location, options: options)
        }
    }
}

extension TabStore {
    /// Runs `body` with a file store's writer connection, to look at SQLite itself; only
    /// ever called on a store opened on a file.
    func withDatabase<T: Sendable>(_ body: (Database) throws(TabStoreError) -> T) throws(TabStoreError) -> T {
        guard let file = backend as? SQLiteBackend else { preconditionFailure("withDatabase on a server store") }
        return try file.withWriter(body)
    }

    /// How many round trips this store's PostgreSQL writer connection has made so far.
    /// Read inside a write of its own, which then costs one round trip more (BEGIN and
    /// COMMIT, sent together): `roundTripsOfEdit` subtracts it.
    /// nil for a store of another backend.
    func writerRoundTrips() throws -> Int? {
        var roundTrips: Int?
        _ = try backend.write(progress: nil) { reader throws(TabStoreError) in
            roundTrips = (reader as? PostgresRecords)?.connection.roundTrips
            return WritePlan()
        }
        return roundTrips
    }

    /// How many round trips this store's PostgreSQL reader connection has made so far
    /// (reading the count costs none); nil for a store of another backend.
    func readerRoundTrips() throws -> Int? {
        try backend.read { records throws(TabStoreError) in (records as? PostgresRecords)?.connection.roundTrips }
    }

    /// The round trips `edit` costs on a PostgreSQL store's writer connection.
    func roundTripsOfEdit(_ edit: () throws -> Void) throws -> Int {
        let before = try #require(try writerRoundTrips())
        try edit()
        // The read of `before` committed in one round trip of its own.
        return try #require(try writerRoundTrips()) - before - 1
    }
}
