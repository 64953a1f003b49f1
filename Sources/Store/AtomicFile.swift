import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file so that, after any failure or kill, its path holds either the old file
/// or the complete new one, never a torn one: the content goes to a temporary file in
/// the same folder, is synced, and is renamed into place; then the folder is synced so
/// the rename itself survives power loss.
///
/// Used by ``TabStore/backup(to:replacing:progress:)`` and ``TabStore/writeFile(_:to:replacing:progress:)``.
enum AtomicFile {
    /// Why a file could not be written.
    enum Failure: Error {
        /// The file exists and replacing it was not allowed.
        case exists
        /// Something other than a regular file is at the path: never replaced, even when
        /// replacing is allowed.
        case notARegularFile(TabStoreError.FileKind)
        /// The file is the database being read, or one of its WAL files.
        case isTheDatabase
        /// No file can have the path's name (`unusableFileName(_:)` says why).
        case unusableName(String)
        /// A system call failed with this `errno`.
        case system(Int32)
        /// The content could not be produced (a SQLite error while copying).
        case content(TabStoreError)
    }

    /// Creates (or, with `replacing`, replaces) `path` with what `content` puts in the
    /// temporary file it is handed (its path and an open descriptor for it).
    ///
    /// Without `replacing`, the final step links the new file into place, which fails if
    /// `path` appeared meanwhile: an existing file is never overwritten. With it, only a
    /// regular file is replaced, and the new file takes its permission bits (and, where
    /// allowed, its owner and group): `--force` on a 0600 file must not publish it.
    /// - Throws: `Failure`; the temporary file is removed (a process killed with SIGKILL
    ///   leaves it behind as `.NAME.tmp-PID`, never in place of `path`; see
    ///   ``removeTemporaryFileForSignal()`` for other signals).
    /// `database` is never replaced: renaming a copy over a live database would leave
    /// every process that has it open writing to a file nobody will read again.
    static func create(
        _ path: String, replacing: Bool, sparing database: String,
        content: (_ temporaryPath: String, _ descriptor: Int32) throws(Failure) -> Void
    ) throws(Failure) {
        if let problem = unusableFileName(path) { throw .unusableName(problem) }
        var status = stat()
        if stat(path, &status) == 0 {
            for file in ["", "-wal", "-shm", "-journal"].map({ database + $0 }) where isFile(file, status) {
                throw .isTheDatabase
            }
        }
        // Not followed: a link is what the rename would replace, not what it points to.
        let replaced = try existingRegularFile(path)
        if !replacing && replaced != nil { throw .exists }
        let (folder, name) = split(path)
        let temporary = folder + "/." + name + ".tmp-\(getpid())"
        // Published before the file exists, taken back once it is gone or in place.
        pendingTemporaryFile.store(Int(bitPattern: strdup(temporary)), ordering: .sequentiallyConsistent)
        defer { free(UnsafeMutablePointer<CChar>(bitPattern: pendingTemporaryFile.exchange(0, ordering: .sequentiallyConsistent))) }
        // Owner-only until it has the replaced file's mode: the content is never more exposed.
        // A link planted at the temporary name is not followed: the open fails instead.
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, replaced == nil ? 0o644 : 0o600)
        guard descriptor >= 0 else { throw .system(errno) }
        var isOpen = true
        do throws(Failure) {
            if let replaced {
                // Only root (or a member, for the group) may give a file away; the file is
                // then the writer's, as a new one would be, with the old mode still.
                if fchown(descriptor, replaced.st_uid, replaced.st_gid) != 0 {
                    _ = fchown(descriptor, uid_t.max, replaced.st_gid)
                }
                // The permission bits only: set-user-ID and the like make no sense on a copy of data.
                if fchmod(descriptor, replaced.st_mode & 0o777) != 0 { throw .system(errno) }
            }
            try content(temporary, descriptor)
            // Sync through a fresh descriptor: `content` may have written by another one (SQLite).
            try syncFile(temporary)
            isOpen = false
            if close(descriptor) != 0 && errno != EINTR { throw .system(errno) }
            if replacing {
                // Checked again: a long backup leaves time for a link or a FIFO to appear.
                _ = try existingRegularFile(path)
                if rename(temporary, path) != 0 { throw .system(errno) }
            } else {
                if link(temporary, path) != 0 { throw errno == EEXIST ? .exists : .system(errno) }
                unlink(temporary)
            }
            try syncFile(folder)
        } catch {
            if isOpen { close(descriptor) }
            unlink(temporary)
            throw error
        }
    }

    /// The status of the regular file at `path`, `nil` when there is nothing there.
    /// - Throws: `.notARegularFile` when something else is there (a link is not followed),
    ///   `.system` when `path` cannot be looked at.
    private static func existingRegularFile(_ path: String) throws(Failure) -> stat? {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            if errno == ENOENT { return nil }
            throw .system(errno)
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return status
        case S_IFDIR: throw .notARegularFile(.directory)
        case S_IFLNK: throw .notARegularFile(.symbolicLink)
        case S_IFCHR: throw .notARegularFile(.characterDevice)
        case S_IFBLK: throw .notARegularFile(.blockDevice)
        case S_IFIFO: throw .notARegularFile(.namedPipe)
        case S_IFSOCK: throw .notARegularFile(.socket)
        default: throw .notARegularFile(.other)
        }
    }

    /// The temporary file `create` is writing, for a signal handler to remove: the address
    /// of a C string (0 for none), owned by whoever takes it out (`exchange`), so the
    /// handler and `create` never both use it.
    private static let pendingTemporaryFile = Atomic<Int>(0)

    /// Removes the temporary file being written, if any. Safe in a signal handler (an
    /// atomic exchange and `unlink`): a program that ends on SIGHUP, SIGINT or SIGTERM
    /// calls it first, so the signal leaves no `.NAME.tmp-PID` behind. The string is not
    /// freed here (`free` is not safe in a handler): the process is about to end.
    static func removeTemporaryFileForSignal() {
        if let path = UnsafeMutablePointer<CChar>(bitPattern: pendingTemporaryFile.exchange(0, ordering: .sequentiallyConsistent)) {
            unlink(path)
        }
    }

    /// Writes all of `bytes` to `descriptor`.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws(Failure) {
        if let code = writeAllBytes(bytes, to: descriptor) { throw .system(code) }
    }

    /// Writes all of `bytes` to a file descriptor, retrying partial and interrupted writes.
    /// - Returns: `nil` when every byte was written, else the `errno` of the failed write.
    static func writeAllBytes(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = write(descriptor, base + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written < 0 { return errno }
                // A write of 0 bytes for a non-empty request makes no progress: call it full.
                if written == 0 { return ENOSPC }
                offset += written
            }
            return nil
        }
    }

    /// Whether `path` names the file `status` describes (the same device and inode).
    private static func isFile(_ path: String, _ status: stat) -> Bool {
        var other = stat()
        return stat(path, &other) == 0 && other.st_dev == status.st_dev && other.st_ino == status.st_ino
    }

    /// `fsync` of a file or folder by path.
    private static func syncFile(_ path: String) throws(Failure) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .system(errno) }
        defer { close(descriptor) }
        if fsync(descriptor) != 0 && errno != EINVAL { throw .system(errno) }
    }

    /// The folder (`.` for a bare name) and the file name of `path`.
    private static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }
}

/// How far a ``TabStore/writeFile(_:to:replacing:progress:)`` has got.
package struct FileWriteProgress: Sendable, Hashable {
    package let writtenBytes: Int
    package let byteCount: Int
}

extension TabStore {
    /// Writes `bytes` to the file at `path` as ``backup(to:replacing:progress:)-1cmbe`` writes its
    /// copy: into a temporary file beside `path` that is synced and then renamed into
    /// place, so that after a failure or a kill `path` holds its old file or all of
    /// `bytes`: the CLI's `export --output`.
    ///
    /// - Parameter bytes: the whole new content of the file.
    /// - Parameter path: where the file goes; its folder must exist.
    /// - Parameter replacing: whether an existing regular file at `path` may be replaced;
    ///   the new file then keeps that file's permission bits (and, where allowed, its owner).
    /// - Parameter progress: called after each mebibyte written, from the calling thread.
    /// - Throws: `TabStoreError.Code.fileExists` when `path` exists and `replacing` is false,
    ///   `.notARegularFile` when something else is at `path`, which is never replaced,
    ///   `.fileIsTheDatabase` when `path` is this store's file or one of its side files,
    ///   `.cannotWrite` when the file cannot be written (a full disk, a missing folder).
    package func writeFile(
        _ bytes: [UInt8], to path: String, replacing: Bool = false, progress: (FileWriteProgress) -> Void = { _ in }
    ) throws(TabStoreError) {
        let chunk = 1 << 20
        do throws(AtomicFile.Failure) {
            try AtomicFile.create(path, replacing: replacing, sparing: location) { _, descriptor throws(AtomicFile.Failure) in
                for start in stride(from: 0, to: bytes.count, by: chunk) {
                    let end = min(start + chunk, bytes.count)
                    try AtomicFile.writeAll(Array(bytes[start..<end]), to: descriptor)
                    progress(FileWriteProgress(writtenBytes: end, byteCount: bytes.count))
                }
            }
        } catch {
            throw error.storeError(path: path)
        }
    }

    /// Removes the temporary file that ``backup(to:replacing:progress:)-1cmbe`` or
    /// ``writeFile(_:to:replacing:progress:)`` is writing, if any: for a program that ends on
    /// SIGHUP, SIGINT or SIGTERM, to call from its handler first, so that the signal leaves
    /// no `.NAME.tmp-PID` beside the file. Safe in a signal handler (an atomic exchange and
    /// `unlink`); the process is expected to end after it.
    package static func removeFileBeingWritten() {
        AtomicFile.removeTemporaryFileForSignal()
    }
}

extension TabStoreError {
    /// What is at a path where a regular file was expected.
    package enum FileKind: Sendable, Hashable, Codable, CustomStringConvertible {
        case directory
        case symbolicLink
        case characterDevice
        case blockDevice
        /// A FIFO.
        case namedPipe
        case socket
        /// A kind this system has that the others do not name.
        case other

        package var description: String {
            switch self {
            case .directory: return "a directory"
            case .symbolicLink: return "a symbolic link"
            case .characterDevice: return "a character device"
            case .blockDevice: return "a block device"
            case .namedPipe: return "a named pipe"
            case .socket: return "a socket"
            case .other: return "a file of another kind"
            }
        }
    }
}
