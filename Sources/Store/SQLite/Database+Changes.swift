import TabStoreSQLite

extension Database {
    /// Rows inserted, updated or deleted on this connection since it opened.
    var totalChanges: Int { Int(sqlite3_total_changes64(handle)) }

    /// The row id of the last row this connection inserted.
    var lastInsertedID: Int { Int(sqlite3_last_insert_rowid(handle)) }
}
