import TabStoreSQLite

extension Database {
    /// The row id of the last row this connection inserted.
    var lastInsertedID: Int { Int(sqlite3_last_insert_rowid(handle)) }
}
