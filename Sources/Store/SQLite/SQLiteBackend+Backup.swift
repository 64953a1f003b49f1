#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SQLiteBackend {
    /// Copies through the writer's connection, as `TabStore.backup(to:replacing:progress:)`
    /// tells; the other connections keep working.
    func backup(to path: String, replacing: Bool, progress: (BackupProgress) -> Void) throws(TabStoreError) {
        try withWriter { source throws(TabStoreError) in
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
