import Dispatch
import Synchronization
import TabStoreSQLite

/// A SQLite file (or an in-memory database) as a backend: a writer connection, and a
/// read-only reader connection so reads never wait behind a write.
final class SQLiteBackend: TabStoreBackend {
    let path: String
    private let options: TabStore.Options
    private let writer: SerializedDatabase
    /// Whether reads get a read-only connection of their own; not in memory, immutable, or
    /// with exclusive locking on a full disk, where the writer's own serves them, nor when
    /// the options ask for one connection.
    private let hasOwnReader: Bool
    /// Whether other connections' writes can reach this store's reads, so that a watch on
    /// the file is worth its cost: a file of its own, read live (not in memory, not an
    /// immutable or upgraded copy, not locked exclusively).
    private let followsFile: Bool
    /// That connection, opened at the first read: a command that only writes (most CLI
    /// runs) never pays for it.
    private let ownReader = Mutex<SerializedDatabase?>(nil)
    /// Why writes cannot be made, when they cannot: the file or its folder is read-only,
    /// or an older file is read through an upgraded copy. Said before trying.
    let writeRefusal: TabStoreError?
    /// The file's own schema version when reads go to an upgraded copy of it.
    private let fileVersion: Int?
    let changesUnseen: TabStoreError?
    /// How the writer waits for other connections' locks (none for a copy in memory).
    let writerLockWait: LockWait?

    var location: String { path }

    init(path: String, options: TabStore.Options) throws(TabStoreError) {
        self.path = path
        self.options = options
        let opened = try Self.open(path: path, options: options)
        writeRefusal = opened.writeRefusal
        fileVersion = opened.fileVersion
        changesUnseen = opened.changesUnseen
        // A read-only connection or a copy in memory serves its own reads.
        followsFile = opened.writeRefusal == nil ? try Self.isSharedFile(opened.database) : false
        hasOwnReader = followsFile && options.concurrentReads
        writerLockWait = opened.database.lockWait
        writer = SerializedDatabase(opened.database)
    }

    deinit {
        // The read-only connection closes first: the writer, closing last, checkpoints
        // and removes the -wal and -shm files, which a read-only connection cannot.
        ownReader.withLock { $0 = nil }
    }

    /// The connection reads use.
    private func reader() throws(TabStoreError) -> SerializedDatabase {
        guard hasOwnReader else { return writer }
        return try ownReader.withLock { (reader: inout SerializedDatabase?) throws(TabStoreError) -> SerializedDatabase in
            if let reader { return reader }
            let opened = SerializedDatabase(try Self.openReader(path: path, options: options))
            reader = opened
            return opened
        }
    }

    func write(
        progress: ((Int) -> Void)?, _ planning: (any WriteReader) throws(TabStoreError) -> WritePlan
    ) throws(TabStoreError) -> WritePlan {
        if let writeRefusal {
            // An edit that changes nothing (a reselection, a tab moved to where it is) needs
            // no write access: on a file this process may only read, it answers as anywhere.
            let plan = try reader().withDatabase { database throws(TabStoreError) in
                try database.readTransaction { () throws(TabStoreError) in try planning(database) }
            }
            guard plan.isEmpty else { throw writeRefusal }
            return plan
        }
        return try writer.withDatabase { database throws(TabStoreError) in
            try database.writeTransaction { () throws(TabStoreError) in
                let plan = try planning(database)
                try database.execute(plan, progress: progress)
                return plan
            }
        }
    }

    /// A file can be a device that syncs: its log is in the file.
    var syncDevice: (any SyncDeviceBackend)? { self }

    func holdBackLockWaits(_ on: Bool) {
        writerLockWait?.holdBack(on)
    }

    func closeAndEnd(_ end: () -> Never) -> Never {
        // The read-only connection first: the writer, closing last, folds the write-ahead
        // log into the file and removes the -wal and -shm files (when no other process has
        // the file open), which a read-only connection cannot. Both locks stay held into
        // `end`: no other thread can use a connection closed here.
        let reader = ownReader.withLock { $0 }
        writer.withDatabase { (writing: Database) -> Never in
            guard let reader else {
                writing.closeNow()
                end()
            }
            reader.withDatabase { (reading: Database) -> Never in
                reading.closeNow()
                writing.closeNow()
                end()
            }
        }
    }

    func read<T: Sendable>(_ body: (any StoreRecords) throws(TabStoreError) -> T) throws(TabStoreError) -> T {
        try reader().withDatabase { database throws(TabStoreError) in try body(database) }
    }

    /// Runs `body` with the writer's connection itself (tests look at SQLite through it).
    func withWriter<T: Sendable>(_ body: (Database) throws(TabStoreError) -> T) throws(TabStoreError) -> T {
        try writer.withDatabase(body)
    }

    func readJournal(after id: Int, unlessVersionIs version: Int?) throws(TabStoreError) -> JournalRead {
        try reader().withDatabase { database throws(TabStoreError) in
            let now = try database.dataVersion()
            let changes = now == version ? [] : try database.changes(after: id)
            return JournalRead(dataVersion: now, changes: changes)
        }
    }

    func startWakeups(pollInterval: Duration, queue: DispatchQueue, handler: @escaping @Sendable () -> Void) -> any Wakeup {
        // Only this store's one connection can change a database in memory, and its writes
        // are handed out as they commit: nothing to wake up for.
        if path == ":memory:" || path.isEmpty { return NoWakeup() }
        // A file watched for writes: only when other connections' writes can reach it.
        return ChangeWakeup(path: followsFile ? path : nil, pollInterval: pollInterval, queue: queue, handler: handler)
    }

    func info() throws(TabStoreError) -> StoreInfo {
        let info = try reader().withDatabase { database throws(TabStoreError) in
            let (version, sets) = try database.readTransaction { () throws(TabStoreError) in
                (try database.schemaState().version, try database.setCount())
            }
            // Outside the transaction: a check that trips over the damage it reports ends a
            // read transaction in error, and it is its own consistent read anyway.
            var problems: [String] = []
            do throws(TabStoreError) {
                try database.integrityCheck { problems.append($0) }
            } catch .corrupt {
                problems.append("(the check stopped: the file is too damaged to read further)")
            }
            return StoreInfo(location: path, schemaVersion: fileVersion ?? version, setCount: sets, storageCheck: problems.joined(separator: "; "))
        }
        if info.isDamaged, fileSize(path + "-wal") ?? 0 > 0 {
            // What is in the -wal file stays there, not moved into the file when the store
            // closes: the damage may be the -wal's (another database's, put beside this
            // one), and the file without it may be sound.
            writer.withDatabase { $0.keepWriteAheadLogOnClose() }
        }
        return info
    }

    /// Whether the writer's database is a file other connections may share: not in memory
    /// (a second connection would be another database), not immutable, not with exclusive
    /// locking (any other connection would be locked out).
    private static func isSharedFile(_ writer: Database) throws(TabStoreError) -> Bool {
        guard writer.path != ":memory:", !writer.path.isEmpty, !writer.isReadOnly else { return false }
        return try writer.lockingMode() != "exclusive"
    }

    /// A read-only connection to the file a writer has opened (and migrated).
    private static func openReader(path: String, options: TabStore.Options) throws(TabStoreError) -> Database {
        let database = try Database(path: path, flags: SQLITE_OPEN_READONLY)
        database.waitForLocks(LockWait(timeout: options.busyTimeout))
        return database
    }
}

/// A file's log of its edits as a device that syncs, in the file itself.
extension SQLiteBackend: SyncDeviceBackend {
    func readLog<T: Sendable>(_ body: (_ log: any SyncDeviceRecords) throws(TabStoreError) -> T) throws(TabStoreError) -> T {
        try reader().withDatabase { database throws(TabStoreError) in try body(database) }
    }

    func writeSeries(
        _ body: (_ log: any SyncDeviceRecords, _ run: (_ planning: (any WriteReader) throws(TabStoreError) -> WritePlan) throws(TabStoreError) -> WritePlan) throws(TabStoreError) -> Void
    ) throws(TabStoreError) {
        if let writeRefusal { throw writeRefusal }
        try writer.withDatabase { database throws(TabStoreError) in
            try database.writeTransaction { () throws(TabStoreError) in
                try body(database) { planning throws(TabStoreError) in
                    let plan = try planning(database)
                    try database.execute(plan, progress: nil)
                    return plan
                }
            }
        }
    }
}
