#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
    ///   or a database error reading this store.
    public func backup(
        to path: String, replacing: Bool = false, progress: (BackupProgress) -> Void = { _ in }
    ) throws(TabStoreError) {
        guard let file = backend as? SQLiteBackend else { throw TabStoreError(.backupNeedsFile(database: location)) }
        try file.withWriter { source throws(TabStoreError) in
            do throws(AtomicFile.Failure) {
                try AtomicFile.create(path, replacing: replacing, sparing: location) { temporary, _ throws(AtomicFile.Failure) in
                    do throws(TabStoreError) {
                        try copy(source, to: temporary, finalPath: path, reportingTo: progress)
                    } catch {
                        throw .content(error)
                    }
                }
            } catch {
                throw error.storeError(path: path)
            }
        }
    }

    /// Pages per step: small enough for steady progress, large enough to be quick.
    private static let pagesPerStep = 256

    private func copy(
        _ source: Database, to temporary: String, finalPath: String, reportingTo progress: (BackupProgress) -> Void
    ) throws(TabStoreError) {
        let destination: Database
        do {
            destination = try Database.openBackupDestination(path: temporary)
        } catch {
            throw error.aboutWriting(finalPath)
        }
        do throws(BackupFailure) {
            try source.backUp(into: destination, pagesPerStep: Self.pagesPerStep) { copied, total in
                progress(BackupProgress(copiedPages: copied, pageCount: total))
            }
        } catch {
            switch error {
            case let .reading(failure): throw failure
            case let .writing(failure): throw failure.aboutWriting(finalPath)
            }
        }
    }
}

extension AtomicFile.Failure {
    /// The failure told in terms of the file being written.
    func storeError(path: String) -> TabStoreError {
        switch self {
        case .exists: TabStoreError(.fileExists(path: path))
        case let .notARegularFile(kind): TabStoreError(.notARegularFile(path: path, kind: kind))
        case .isTheDatabase: TabStoreError(.fileIsTheDatabase(path: path))
        case let .unusableName(reason): TabStoreError(.cannotWrite(path: path, reason: reason))
        case let .system(code): TabStoreError(.cannotWrite(path: path, reason: String(cString: strerror(code))))
        case let .content(error): error
        }
    }
}

private extension TabStoreError {
    /// A failure of the temporary copy, told about the file the user named.
    func aboutWriting(_ path: String) -> TabStoreError {
        switch reason {
        case .diskFull: TabStoreError(.cannotWrite(path: path, reason: String(cString: strerror(ENOSPC))))
        case .readOnly: TabStoreError(.cannotWrite(path: path, reason: String(cString: strerror(EROFS))))
        case let .cannotOpen(_, reason), let .sqlite(_, _, reason, _): TabStoreError(.cannotWrite(path: path, reason: reason))
        default: self
        }
    }
}
