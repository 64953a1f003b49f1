/// The locks a write takes (the benchmark's raw clients and the tests take the same).
package enum PostgresLock {
    /// The write lock of the names a rule reads ($2, in the schema $1): a transaction-level
    /// advisory lock per name, so writes to different sets never wait for each other, and
    /// a set not made yet is locked as well as one that is. Unlike a row lock it takes no
    /// transaction id: a write gets its id with its first write, once it holds all its
    /// locks, which is what orders a set's journal rows (migration 0010). Keys in one order,
    /// so two writes locking the same two names cannot deadlock. Only the lock: the reads
    /// after it see what the lock's previous holder committed.
    package static let names = """
        SELECT pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext($1), key)
        FROM (SELECT DISTINCT pg_catalog.hashtext(name) AS key FROM unnest($2::text[]) AS name ORDER BY 1) AS keys
        """
}
