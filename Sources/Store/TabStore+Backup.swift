/// How far a backup has got: pages copied of the database's current page count.
public struct BackupProgress: Sendable, Hashable {
    public let copiedPages: Int
    public let pageCount: Int
}

extension TabStore {
    /// Writes a consistent copy of the whole database to `path`, readable as a store of
    /// its own (`TabStore(path:)`, `tabstore --db PATH`).
    ///
    /// The copy is made with SQLite's online backup API while other connections keep
    /// working, into a temporary file beside `path` that is synced and then renamed into
    /// place: after a failure or a kill, `path` is its old file or the whole copy.
    ///
    /// For example:
    /// ```swift
    /// try store.backup(to: "/backups/tabs.sqlite", replacing: true)
    /// ```
    /// - Parameter path: where the copy goes; never this store's own file.
    /// - Parameter replacing: whether an existing regular file at `path` may be replaced;
    ///   the copy then keeps that file's permission bits (and, where allowed, its owner).
    /// - Parameter progress: called after each batch of pages, from the calling thread.
    /// - Throws: `TabStoreError.Code.fileExists` when `path` exists and `replacing` is false,
    ///   `.notARegularFile` when something else is at `path` (a symbolic link, a
    ///   directory, a device, a named pipe, a socket), which is never replaced,
    ///   `.fileIsTheDatabase` when `path` is this store's own file (never replaced),
    ///   `.cannotWrite` when the copy cannot be written (a full disk, a missing folder),
    ///   `.backupNeedsFile` on a server's store (which has no file to copy), or a database
    ///   error reading this store.
    public func backup(
        to path: String, replacing: Bool = false, progress: (BackupProgress) -> Void = { _ in }
    ) throws(TabStoreError) {
        try backend.backup(to: path, replacing: replacing, progress: progress)
    }
}
