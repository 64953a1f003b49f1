import Synchronization

/// One connection, used by one caller at a time. The store and its change hub share it;
/// neither owns the other.
final class SerializedDatabase: Sendable {
    private let database: Mutex<Database>

    init(_ database: sending Database) {
        self.database = Mutex(database)
    }

    /// Runs `body` with the connection, one caller at a time.
    func withDatabase<T: Sendable, Failure: Error>(_ body: (Database) throws(Failure) -> T) throws(Failure) -> T {
        try database.withLock { (database: inout Database) throws(Failure) -> T in
            try body(database)
        }
    }
}
