extension TabStore {
    /// Rows this store has inserted, updated or deleted since it opened, its migrations
    /// included. It moves exactly when a call wrote something: read it before and after
    /// a call to tell a change saved from a call that had nothing to do (a reselection, a
    /// refusal). Other stores' and processes' writes are not counted.
    public var rowsWritten: Int {
        backend.rowsWritten
    }
}
