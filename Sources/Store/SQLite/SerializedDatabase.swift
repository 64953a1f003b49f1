import Synchronization

/// One connection, used by one caller at a time. The store and its change hub share it;
/// neither owns the other.
final class SerializedDatabase: Sendable {
    private let database: Mutex<Database>

    init(_ database: sending Database) {
        self.database = Mutex(database)
    }

    /// Runs `body` with the connection, one caller at a time.
    func withDatabase<T: Sendable>(_ body: (Database) throws(TabStoreError) -> T) throws(TabStoreError) -> T {
        try database.withLock { (database: inout Database) throws(TabStoreError) -> T in
            try body(database)
        }
    }
}
