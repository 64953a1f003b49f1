extension TabStore {
    /// Rows this store has inserted, updated or deleted since it opened (migrating
    /// included). It moves exactly when a call wrote something, so the CLI can tell a
    /// run that saved a change from one that found nothing to do.
    package var rowsWritten: Int {
        backend.rowsWritten
    }
}
