import TabStoreSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opening a database file: what is there, whose it is, and what it allows, before
/// anything is written to it.
extension SQLiteBackend {
    /// Opens, retrying while another connection holds a lock until the busy timeout is
    /// spent: parts of opening take locks without SQLite's busy handler (turning a new
    /// file to WAL upgrades a read lock to a write lock; exclusive locking takes its lock
    /// once), so a race between first openers would otherwise fail at once.
    static func open(path: String, options: TabStore.Options) throws(TabStoreError) -> OpenedFile {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: options.busyTimeout)
        while true {
            do {
                return try openOnce(path: path, options: options)
            } catch .busy where clock.now < deadline {
                Database.sleep(milliseconds: 5)
            }
        }
    }

    /// Opens the file, recognises it as tabstore's (or empty) before anything is written
    /// to it, then brings its schema up to date.
    private static func openOnce(path: String, options: TabStore.Options) throws(TabStoreError) -> OpenedFile {
        if let problem = notAFile(path) { throw TabStoreError(.cannotOpen(path: path, reason: problem)) }
        let create = options.createsMissingDatabase ? SQLITE_OPEN_CREATE : 0
        var database = try Database(path: path, flags: SQLITE_OPEN_READWRITE | create)
        if database.isReadOnly && access(path, W_OK) == 0 {
            // SQLite tries a failed read-write open again read-only: a file another process
            // made between the two tries is then open read-only though it is writable
            // (8 processes making one file: 'read-only', now and then). Open it again.
            database = try Database(path: path, flags: SQLITE_OPEN_READWRITE | create)
        }
        database.waitForLocks(LockWait(timeout: options.busyTimeout))
        var writeRefusal: TabStoreError?
        var changesUnseen: TabStoreError?
        var schema: SchemaState
        do {
            schema = try database.schemaState()
        } catch .diskFull {
            // The first read writes nothing but the -shm file, which cannot be sized on a
            // full disk. Exclusive locking keeps the WAL index in this process's memory
            // instead (no -shm): reads work, and writes fail with "the disk is full".
            database = try Database(path: path, flags: SQLITE_OPEN_READWRITE)
            database.waitForLocks(LockWait(timeout: options.busyTimeout))
            try database.lockExclusively()
            schema = try database.schemaState()
        } catch let error where error.isOpeningFailure && !isWritableFolder(folder(of: path)) {
            // SQLite could not create the -shm (or -wal) file beside the database: its
            // folder is not writable (a read-only mount, another user's folder).
            (database, writeRefusal) = try openWithoutSideFiles(path: path, fileIsWritable: !database.isReadOnly)
            schema = try database.schemaState()
            changesUnseen = TabStoreError(.cannotFollowChanges(
                path: path,
                reason: "its folder \(folder(of: path)) is not writable, and SQLite needs its -shm file there to see other processes' changes"
            ))
        }
        let found: Recognition
        do {
            found = try database.recognise(schema)
        } catch {
            // A refused file stays as it was: changes waiting in its -wal file are not
            // moved into it when this connection closes.
            if fileSize(path + "-wal") ?? 0 > 0 { database.keepWriteAheadLogOnClose() }
            throw error
        }
        // Reading never writes: an empty file is no database yet, as a missing one.
        if found == .empty && !options.createsMissingDatabase { throw TabStoreError(.databaseNotFound(path: path)) }
        if writeRefusal == nil && database.isReadOnly { writeRefusal = readOnlyReason(path) }
        if writeRefusal == nil {
            try database.useWriteAheadLog()
        }
        try database.enforceForeignKeys(syncingFully: options.durability == .full)
        let version = if case let .tabStore(version) = found { version } else { 0 }
        guard version < Migration.latestVersion else {
            return OpenedFile(database: database, writeRefusal: writeRefusal, changesUnseen: changesUnseen)
        }
        if let writeRefusal {
            // An older tabstore file that cannot be upgraded where it is: read a copy
            // upgraded in memory. An empty file cannot be made a database.
            guard case .tabStore = found else { throw writeRefusal }
            return OpenedFile(
                database: try upgradedCopy(of: database),
                writeRefusal: writeRefusal, fileVersion: version,
                changesUnseen: changesUnseen ?? TabStoreError(.cannotFollowChanges(
                    path: path, reason: "it is older than this tabstore and cannot be upgraded where it is, so a copy upgraded in memory is read"
                ))
            )
        }
        try database.migrate()
        return OpenedFile(database: database)
    }

    /// A read-only connection for a database whose folder is not writable. The file
    /// alone holds every committed change when there is no `-wal` file, or an empty one:
    /// it is then read as immutable (nothing can be writing to it without those files).
    /// Changes waiting in a `-wal` file cannot be read without a `-shm` file: refused,
    /// naming the folder. Writes are refused naming the folder when the file itself
    /// is writable.
    private static func openWithoutSideFiles(
        path: String, fileIsWritable: Bool
    ) throws(TabStoreError) -> (Database, writeRefusal: TabStoreError) {
        let folder = folder(of: path)
        if fileSize(path + "-wal") ?? 0 > 0 {
            throw TabStoreError(.folderNotWritable(path: path, folder: folder, forWriting: false))
        }
        let database = try Database(path: path, uri: immutableURI(path), flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI)
        let refusal: TabStoreError = fileIsWritable
            ? TabStoreError(.folderNotWritable(path: path, folder: folder, forWriting: true)) : TabStoreError(.readOnly(path: path))
        return (database, refusal)
    }

    /// The older tabstore file `source` holds, copied into memory and upgraded there: the
    /// file is left as it is.
    private static func upgradedCopy(of source: Database) throws(TabStoreError) -> Database {
        // Opened as :memory:, named as the file in errors.
        let copy = try Database(path: source.path, uri: ":memory:", flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        do throws(BackupFailure) {
            try source.backUp(into: copy, pagesPerStep: -1) { _, _ in }
        } catch {
            switch error {
            case let .reading(failure), let .writing(failure): throw failure
            }
        }
        try copy.enforceForeignKeys(syncingFully: false)
        try copy.migrate()
        return copy
    }
}

/// A connection opened on a database file, with what it allows.
struct OpenedFile {
    let database: Database
    /// Why writes cannot be made through it, when they cannot.
    var writeRefusal: TabStoreError?
    /// The file's schema version when `database` is an upgraded copy of it.
    var fileVersion: Int?
    /// Why other processes' changes cannot be seen through it, when they cannot: it shows
    /// the database as it was when opened.
    var changesUnseen: TabStoreError?
}

/// Why `path` cannot hold a database although something is there: SQLite would open a
/// named pipe or a device and fail at the first read with "disk I/O error" (or, on
/// /dev/null, take it for an empty database). `nil` for a regular file, or nothing
/// (whether that may be created is decided later).
private func notAFile(_ path: String) -> String? {
    guard path != ":memory:" else { return nil }
    var status = stat()
    guard stat(path, &status) == 0 else {
        return errno == ELOOP ? "its symbolic links form a loop (\(String(cString: strerror(ELOOP))))" : nil
    }
    switch status.st_mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFDIR: return "it is a directory"
    case S_IFIFO: return "it is a named pipe (FIFO), not a file"
    case S_IFSOCK: return "it is a socket, not a file"
    default: return "it is a device, not a file"
    }
}

/// The size of the file at `path`, or `nil` when there is none.
func fileSize(_ path: String) -> Int? {
    var status = stat()
    return stat(path, &status) == 0 ? Int(status.st_size) : nil
}

/// Whether files can be created in `folder` (not on a read-only mount, not another user's).
private func isWritableFolder(_ folder: String) -> Bool {
    access(folder, W_OK) == 0
}

private extension TabStoreError {
    /// What SQLite says when it cannot open or create a database's -shm or -wal file.
    var isOpeningFailure: Bool {
        switch self {
        case .cannotOpen, .readOnly: true
        default: false
        }
    }
}

/// The folder that holds `path`, as the user would name it.
func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else {
        // A bare name is in the working folder: name it.
        guard let workingFolder = getcwd(nil, 0) else { return "." }
        defer { free(workingFolder) }
        return String(cString: workingFolder)
    }
    return slash == path.startIndex ? "/" : String(path[..<slash])
}

/// `file:` URI for `path` with `immutable=1`; reserved and non-ASCII bytes percent-encoded.
private func immutableURI(_ path: String) -> String {
    var uri = "file:"
    for byte in path.utf8 {
        switch byte {
        case UInt8(ascii: "%"), UInt8(ascii: "?"), UInt8(ascii: "#"), 0x80...:
            let hex = String(byte, radix: 16, uppercase: true)
            uri += "%" + (hex.count == 1 ? "0" + hex : hex)
        default:
            uri.unicodeScalars.append(Unicode.Scalar(byte))
        }
    }
    return uri + "?immutable=1"
}
