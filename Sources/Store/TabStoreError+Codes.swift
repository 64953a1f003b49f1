// Every code, in one order three times as Swift needs it: what it carries (a case of `Reason`), its
// public name and documentation (a `Code`), and its row in `Reason.entry`: its group, details and sentence.

extension TabStoreError {
    /// What went wrong, with its details: one case per ``Code``, named as it is. Inside the
    /// package only, so that a case can be added without breaking a caller's exhaustive `switch`.
    package enum Reason: Sendable, Hashable, Codable {
        // The request cannot be done with the data as it is.
        case setNotFound(set: String), setAlreadyExists(set: String), tabNotFound(title: String, set: String), tabIDNotFound(id: TabID, set: String)
        case indexOutOfRange(index: Int, count: Int, set: String), indexTextOutOfRange(index: String, count: Int, set: String)
        case ambiguousTab(text: String, indexedTitle: String?, titledIndex: Int, set: String)
        case insertionIndexOutOfRange(index: Int, count: Int, set: String), insertionIndexTextOutOfRange(index: String, count: Int, set: String)
        case offsetOutOfRange(offset: Int, count: Int, set: String), insertionOffsetOutOfRange(offset: Int, count: Int, set: String)
        case duplicateTitle(title: String, set: String), repeatedTitle(title: String), invalidTitle(title: String, problem: NameProblem)
        case invalidSetName(name: String, problem: NameProblem), emptySet(set: String), revisionMismatch(set: String, expected: Int, actual: Int)
        case missingSetRevision(set: String, expected: Int, actual: Int), noClosedTabs(set: String), payloadTooLarge(bytes: Int, limit: Int)
        case emptyPayloadKey, invalidPayload(reason: String), payloadContainsNUL(key: String, inValue: Bool), invalidDocument(reason: String)
        case tabIDInUse(id: TabID, set: String, place: String), editCancelled(set: String), backupNeedsFile(database: String)
        case fileExists(path: String), notARegularFile(path: String, kind: FileKind), fileIsTheDatabase(path: String), databaseNotFound(path: String)
        case invalidOption(name: String, reason: String), syncNeedsAFile(database: String), syncNotStarted(path: String)
        case syncsWithAnotherServer(path: String, server: String), deviceAndServer(path: String), invalidMutation(reason: String)
        case replacesUnseenTabs(set: String, count: Int), syncLimitExceeded(limit: String, maximum: Int, found: Int?)
        // The database file cannot serve the request.
        case schemaTooNew(path: String, found: Int, supported: Int), notATabStore(path: String)
        case foreignSchema(path: String, version: Int, difference: SchemaDifference), notADatabase(path: String), corrupt(path: String)
        case readOnly(path: String), folderNotWritable(path: String, folder: String, forWriting: Bool)
        case sideFilesNotWritable(path: String, walIsEmpty: Bool), cannotFollowChanges(path: String, reason: String), diskFull(path: String)
        case busy(path: String), cannotOpen(path: String, reason: String), damagedSet(set: String, damage: SetDamage)
        case damagedSyncLog(path: String, mutation: Int), cannotWrite(path: String, reason: String)
        case sqlite(path: String, code: Int32, message: String, sql: String?), internalFailure(database: String, reason: String)
        case tooManyPendingEdits(set: String, limit: Int)
        // A PostgreSQL server cannot serve the request. `server` names it as
        // `postgresql://user@host:port/database`, never with a password.
        case postgresLibraryMissing(reason: String), invalidDatabaseURL(url: String, reason: String)
        case serverUnavailable(server: String, reason: String), connectionLost(server: String, outcomeUnknown: Bool)
        case server(server: String, sqlState: String, message: String, sql: String?)
        case serverNotAnswering(server: String, seconds: Int, outcomeUnknown: Bool), standby(server: String)
        case permissionDenied(server: String, role: String, privilege: String, object: String), notUTF8(server: String, encoding: String)
        case schemaNotFound(server: String, schema: String)
        // A sync message or a sync server cannot be worked with.
        case invalidSyncMessage(reason: String), syncVersionNotSupported(version: Int, readable: [Int]), deviceCopied(device: String, number: Int)
        case serverBehind(server: String, device: String, serverSettled: Int, settled: Int)
    }
}

extension TabStoreError.Code {
    public static let setNotFound = Self(rawValue: "setNotFound")
    public static let setAlreadyExists = Self(rawValue: "setAlreadyExists")
    public static let tabNotFound = Self(rawValue: "tabNotFound")
    /// `TabRef.id` named no tab of the set.
    public static let tabIDNotFound = Self(rawValue: "tabIDNotFound")
    /// Valid indices are `0..<count` and `-count...-1`, for a set of ``TabStoreError/tabCount`` tabs.
    public static let indexOutOfRange = Self(rawValue: "indexOutOfRange")
    /// An index typed as text (`TabRef.userInput`) too large for any set, even for `Int`.
    public static let indexTextOutOfRange = Self(rawValue: "indexTextOutOfRange")
    /// A typed integer that is an index (of a tab, or out of range) and another tab's title.
    public static let ambiguousTab = Self(rawValue: "ambiguousTab")
    /// Valid insertion indices are `0...count` and `-(count + 1)...-1`, for a set of `count` tabs.
    public static let insertionIndexOutOfRange = Self(rawValue: "insertionIndexOutOfRange")
    /// An insertion index typed as text, too large for any set, even for `Int`.
    public static let insertionIndexTextOutOfRange = Self(rawValue: "insertionIndexTextOutOfRange")
    /// An offset (SwiftUI's `onMove` and `onDelete`: counted from the start, never negative)
    /// that names no tab: valid offsets are `0..<count`, for a set of `count` tabs.
    public static let offsetOutOfRange = Self(rawValue: "offsetOutOfRange")
    /// A destination offset (SwiftUI's `onMove` `toOffset`) outside `0...count`.
    public static let insertionOffsetOutOfRange = Self(rawValue: "insertionOffsetOutOfRange")
    public static let duplicateTitle = Self(rawValue: "duplicateTitle")
    /// The same title given twice in one call.
    public static let repeatedTitle = Self(rawValue: "repeatedTitle")
    public static let invalidTitle = Self(rawValue: "invalidTitle")
    public static let invalidSetName = Self(rawValue: "invalidSetName")
    /// `select` and `restore` need a tab to work on.
    public static let emptySet = Self(rawValue: "emptySet")
    /// A write made with `ifRevision:` found the set at another revision.
    public static let revisionMismatch = Self(rawValue: "revisionMismatch")
    /// A write made with `ifRevision:` to a set that does not exist, whose name is at
    /// another revision (0 when never used; else where its last set left it).
    public static let missingSetRevision = Self(rawValue: "missingSetRevision")
    /// `reopen` found no removed tab to bring back.
    public static let noClosedTabs = Self(rawValue: "noClosedTabs")
    /// A payload over ``TabStore/payloadLimit`` bytes (keys and values, UTF-8).
    public static let payloadTooLarge = Self(rawValue: "payloadTooLarge")
    /// A payload key that is empty.
    public static let emptyPayloadKey = Self(rawValue: "emptyPayloadKey")
    /// A typed payload that cannot be stored (not a flat value) or read as the type asked.
    public static let invalidPayload = Self(rawValue: "invalidPayload")
    /// A payload key or value holds U+0000, which PostgreSQL cannot store: refused by every backend.
    public static let payloadContainsNUL = Self(rawValue: "payloadContainsNUL")
    /// An import document that is not the export format.
    public static let invalidDocument = Self(rawValue: "invalidDocument")
    /// An import document gives a tab an id that a tab of another set already has (a document
    /// exported and imported under another name, say). Without its `ids` its tabs get new ones.
    public static let tabIDInUse = Self(rawValue: "tabIDInUse")
    /// A ``TabBarModel`` edit cancelled (``TabBarModel/cancel(_:)``) before it was written.
    public static let editCancelled = Self(rawValue: "editCancelled")
    /// `backup` copies a database file; the store's database is a server.
    public static let backupNeedsFile = Self(rawValue: "backupNeedsFile")
    /// A file a backup or export writes already exists, and replacing it was not asked for.
    public static let fileExists = Self(rawValue: "fileExists")
    /// Something other than a regular file (a symbolic link, even to a regular file, a directory, a
    /// device, a named pipe, a socket) is where a backup or export would write: never replaced.
    public static let notARegularFile = Self(rawValue: "notARegularFile")
    /// A backup or export was asked to replace the database being read (or its WAL files).
    public static let fileIsTheDatabase = Self(rawValue: "fileIsTheDatabase")
    /// No file at the path, when opened with `createsMissingDatabase: false`.
    public static let databaseNotFound = Self(rawValue: "databaseNotFound")
    /// A `TabStore.Options` value no store can work with (a negative `closedTabLimit`): nothing was opened.
    public static let invalidOption = Self(rawValue: "invalidOption")
    /// A server's store was asked to act as a syncing device: a device keeps its tabs in a file.
    public static let syncNeedsAFile = Self(rawValue: "syncNeedsAFile")
    /// A sync call on a file that has not started syncing (``TabStore/startSync(server:device:)-4hhw0``).
    public static let syncNotStarted = Self(rawValue: "syncNotStarted")
    /// ``TabStore/startSync(server:device:)-4hhw0`` on a file that syncs with another server
    /// already: its cookie and mutation numbers are that server's.
    public static let syncsWithAnotherServer = Self(rawValue: "syncsWithAnotherServer")
    /// A file asked to be a device and a server at once (a device's file served a push or a pull,
    /// or a file that has served devices was to start syncing): its sets would be two servers'.
    public static let deviceAndServer = Self(rawValue: "deviceAndServer")
    /// A device's mutation a server cannot apply as sent (an unknown kind, a nil or repeated
    /// tab id, a name or title no store holds): settled as refused, the push goes on.
    public static let invalidMutation = Self(rawValue: "invalidMutation")
    /// A device's edit of a whole set (an import, a replace) reached a server whose set has
    /// tabs the device had not seen: refused rather than erase them; the device pulls them.
    public static let replacesUnseenTabs = Self(rawValue: "replacesUnseenTabs")
    /// A sync message past one of ``TabSyncLimits`` (bytes, mutations, tabs, sets): refused whole.
    /// On a device, an edit whose mutation a server would refuse so: the edit is not made.
    public static let syncLimitExceeded = Self(rawValue: "syncLimitExceeded")

    public static let schemaTooNew = Self(rawValue: "schemaTooNew")
    /// A SQLite database, but some other program's.
    public static let notATabStore = Self(rawValue: "notATabStore")
    /// A file with tabstore's mark whose schema is not tabstore's (a trigger, view, table or index
    /// more, less, or defined otherwise): it could run another's SQL on every write, or show rows
    /// that are not there, so nothing is read from it or written to it.
    public static let foreignSchema = Self(rawValue: "foreignSchema")
    public static let notADatabase = Self(rawValue: "notADatabase")
    public static let corrupt = Self(rawValue: "corrupt")
    /// The database takes no writes: a file, or on a server a database set read-only.
    public static let readOnly = Self(rawValue: "readOnly")
    /// The file's folder is not writable, and SQLite needs to create its `-wal` and `-shm` files
    /// there: to write, or to read changes waiting in its `-wal` file (other reads work).
    public static let folderNotWritable = Self(rawValue: "folderNotWritable")
    /// The file is writable, but its `-wal` or `-shm` file is not: made by another user's read
    /// (SQLite makes them with the reader as owner), they stay until a writer removes them. The
    /// message says when removing both, with no process using the database, loses nothing.
    public static let sideFilesNotWritable = Self(rawValue: "sideFilesNotWritable")
    /// Observing (`changes`, `observe`, a ``TabBarModel``) a database whose other
    /// processes' changes cannot be seen here: reads show it as it was when opened.
    public static let cannotFollowChanges = Self(rawValue: "cannotFollowChanges")
    public static let diskFull = Self(rawValue: "diskFull")
    /// Still locked by another connection after the busy timeout.
    public static let busy = Self(rawValue: "busy")
    public static let cannotOpen = Self(rawValue: "cannotOpen")
    /// The set's rows break the tab rules, or hold an integer no tabstore writes (`info` lists
    /// each thing wrong): edited around tabstore. No write builds on it and no read of it answers
    /// (``TabStore/tabSets()-8wjxc`` still lists it, with no selection outside it).
    public static let damagedSet = Self(rawValue: "damagedSet")
    /// A pending edit in a device's sync log is not as tabstore writes it (edited by other means):
    /// no sync of that device goes on, since the edit can neither be sent nor planned again.
    public static let damagedSyncLog = Self(rawValue: "damagedSyncLog")
    /// A file a backup or export writes could not be written; the old file, if any, is intact.
    public static let cannotWrite = Self(rawValue: "cannotWrite")
    /// Any other SQLite failure, with its extended result code and message (and the statement, which `description` leaves out).
    public static let sqlite = Self(rawValue: "sqlite")
    /// tabstore broke one of its own promises (a defect to report); nothing was changed.
    public static let internalFailure = Self(rawValue: "internalFailure")
    /// A ``TabBarModel`` already holds ``TabBarModel/pendingEditLimit`` edits waiting to be written
    /// (another process held the write lock that long, or the store is suspended): not made.
    public static let tooManyPendingEdits = Self(rawValue: "tooManyPendingEdits")

    /// libpq (Debian `libpq5`) could not be loaded; the message gives the loader's reason.
    public static let postgresLibraryMissing = Self(rawValue: "postgresLibraryMissing")
    /// A database URL that cannot be used; it is shown without its password.
    public static let invalidDatabaseURL = Self(rawValue: "invalidDatabaseURL")
    /// No connection could be made (the server is down or unreachable, refused the login, or has no such database).
    public static let serverUnavailable = Self(rawValue: "serverUnavailable")
    /// The connection broke during a call: before the commit was sent, so nothing changed,
    /// or after (the message says which), and the server may or may not have applied it.
    public static let connectionLost = Self(rawValue: "connectionLost")
    /// Any other server error, with its SQLSTATE and message (and the statement, which `description` leaves out).
    public static let server = Self(rawValue: "server")
    /// The server did not answer within ``TabStoreError/secondsWaited`` (the busy timeout and
    /// the server timeout); the connection was given up. The commit as for `connectionLost`.
    public static let serverNotAnswering = Self(rawValue: "serverNotAnswering")
    /// The server is a standby (a read-only replica): writes need the primary.
    public static let standby = Self(rawValue: "standby")
    /// The role lacks a privilege tabstore needs (`SELECT`, `CREATE`... on an object such as
    /// `table public.tab_set`), named in the message when one was found missing.
    public static let permissionDenied = Self(rawValue: "permissionDenied")
    /// The database's encoding is not UTF8, which tabstore needs.
    public static let notUTF8 = Self(rawValue: "notUTF8")
    /// The schema chosen for tabstore's tables (the URL's search_path, else `public`) is missing.
    public static let schemaNotFound = Self(rawValue: "schemaNotFound")

    /// A sync message (``TabSyncPush``, ``TabSyncPull`` or their results) of a format or
    /// version this library does not read, or that contradicts itself; nothing was applied.
    public static let invalidSyncMessage = Self(rawValue: "invalidSyncMessage")
    /// A sync message of a version the receiver does not read; the error lists those it reads (``TabSyncFormat/readableVersions``).
    public static let syncVersionNotSupported = Self(rawValue: "syncVersionNotSupported")
    /// Two files sync as one device (a copy, or an older copy put back): their mutations share
    /// numbers. Nothing more of the file that found it out is applied (<doc:OfflineSync>).
    public static let deviceCopied = Self(rawValue: "deviceCopied")
    /// A server answers as though it had settled fewer of the device's mutations than it once
    /// said (replaced, or put back from an older copy): the edits stay pending (<doc:OfflineSync>).
    public static let serverBehind = Self(rawValue: "serverBehind")
}

extension TabStoreError.Reason {
    /// A reason's row: its code, whether the request (`request`) or the database or its server
    /// (`database`) is at fault, the details a caller reads, and its sentence.
    struct Entry {
        var code: TabStoreError.Code, isDatabaseProblem: Bool, message: ErrorMessage
        var setName: String? = nil, title: String? = nil, index: Int? = nil, tabCount: Int? = nil, server: String? = nil, secondsWaited: Int? = nil

        static func request(_ code: TabStoreError.Code, set: String? = nil, title: String? = nil, index: Int? = nil, count: Int? = nil, _ message: ErrorMessage) -> Entry {
            Entry(code: code, isDatabaseProblem: false, message: message, setName: set, title: title, index: index, tabCount: count)
        }

        static func database(_ code: TabStoreError.Code, set: String? = nil, server: String? = nil, seconds: Int? = nil, _ message: ErrorMessage) -> Entry {
            Entry(code: code, isDatabaseProblem: true, message: message, setName: set, server: server, secondsWaited: seconds)
        }
    }

    /// The table. A sentence quotes a name with `quoted(_:)` and interpolates other text from
    /// outside as a `String`, so that its ``ErrorMessage`` shows that text made visible.
    var entry: Entry {
        switch self {
        case let .setNotFound(set): return .request(.setNotFound, set: set, "no tab set named \(quoted(set))")
        case let .setAlreadyExists(set): return .request(.setAlreadyExists, set: set, "a tab set named \(quoted(set)) already exists")
        case let .tabNotFound(title, set): return .request(.tabNotFound, set: set, title: title, "no tab titled \(quoted(title)) in set \(quoted(set))")
        case let .tabIDNotFound(id, set): return .request(.tabIDNotFound, set: set, "no tab with id \(id) in set \(quoted(set))")
        case let .indexOutOfRange(index, count, set): return .request(.indexOutOfRange, set: set, index: index, count: count, outOfRange(String(index), count: count, set: set))
        case let .indexTextOutOfRange(index, count, set): return .request(.indexTextOutOfRange, set: set, count: count, outOfRange(index, count: count, set: set))
        case let .ambiguousTab(text, indexedTitle, titledIndex, set):
            let shown = ErrorMessage.Name(text, quote: "", limit: 60)
            let index: ErrorMessage = indexedTitle.map { "index \(shown) is the tab \(quoted($0))" } ?? "index \(shown) is out of range"
            return .request(.ambiguousTab, set: set, "\(quoted(text)) is ambiguous in set \(quoted(set)): \(index), and the tab at index \(titledIndex) is titled \(quoted(text)); say '--index \(shown)' or '--title \(shown)'")
        case let .insertionIndexOutOfRange(index, count, set):
            return .request(.insertionIndexOutOfRange, set: set, index: index, count: count, insertionOutOfRange(String(index), count: count, set: set))
        case let .insertionIndexTextOutOfRange(index, count, set): return .request(.insertionIndexTextOutOfRange, set: set, count: count, insertionOutOfRange(index, count: count, set: set))
        case let .offsetOutOfRange(offset, count, set): return .request(.offsetOutOfRange, set: set, index: offset, count: count, count == 0
            ? "offset \(offset) is out of range: set \(quoted(set)) has no tabs"
            : "offset \(offset) is out of range for set \(quoted(set)) (valid: 0...\(count - 1))")
        case let .insertionOffsetOutOfRange(offset, count, set): return .request(.insertionOffsetOutOfRange, set: set, index: offset, count: count, count == 0
            ? "insertion offset \(offset) is out of range: set \(quoted(set)) has no tabs (valid: 0)"
            : "insertion offset \(offset) is out of range for set \(quoted(set)) (valid: 0...\(count))")
        case let .duplicateTitle(title, set): return .request(.duplicateTitle, set: set, title: title, "set \(quoted(set)) already has a tab titled \(quoted(title))")
        case let .repeatedTitle(title): return .request(.repeatedTitle, title: title, "title \(quoted(title)) is given twice")
        case let .invalidTitle(title, problem): return .request(.invalidTitle, title: title, "invalid title \(quoted(title)): \(problem)")
        case let .invalidSetName(name, problem): return .request(.invalidSetName, set: name, "invalid set name \(quoted(name)): \(problem)")
        case let .emptySet(set): return .request(.emptySet, set: set, "set \(quoted(set)) has no tabs")
        case let .revisionMismatch(set, expected, actual): return .request(.revisionMismatch, set: set, expected > actual
            ? "set \(quoted(set)) never reached revision \(expected) (it is at revision \(actual))"
            : expected < 0
            ? "set \(quoted(set)) was never at revision \(expected): revisions are not negative (it is at revision \(actual))"
            : "set \(quoted(set)) changed since revision \(expected) (now \(actual))")
        case let .missingSetRevision(set, expected, actual): return .request(.missingSetRevision, set: set, actual == 0
            ? "set \(quoted(set)) does not exist, so it is not at revision \(expected)"
            : "set \(quoted(set)) does not exist: its name was left at revision \(actual), not \(expected)")
        case let .noClosedTabs(set): return .request(.noClosedTabs, set: set, "set \(quoted(set)) has no removed tab to reopen")
        case let .payloadTooLarge(bytes, limit): return .request(.payloadTooLarge, "tab data of \(bytes) bytes is over the limit of \(limit) bytes (keys and values, UTF-8)")
        case .emptyPayloadKey: return .request(.emptyPayloadKey, "a tab data key is empty")
        case let .invalidPayload(reason): return .request(.invalidPayload, "invalid tab data: \(reason)")
        case let .payloadContainsNUL(key, inValue):
            return .request(.payloadContainsNUL, "\(inValue ? "the value of tab data key" : "tab data key") \(quoted(key)) contains a NUL character (U+0000), which no database of tabstore's can store")
        case let .invalidDocument(reason): return .request(.invalidDocument, "invalid import document: \(reason)")
        case let .tabIDInUse(id, set, place): return .request(.tabIDInUse, set: set, place.isEmpty
            ? "id \(id) already belongs to a tab in set \(quoted(set))"
            : "cannot import \(place): id \(id) already belongs to a tab in set \(quoted(set)) (leave out the document's \"ids\" to give its tabs new ones)")
        case let .editCancelled(set): return .request(.editCancelled, set: set, "the edit of set \(quoted(set)) was cancelled before it was written")
        case let .backupNeedsFile(database): return .request(.backupNeedsFile, "backup copies a database file, and \(database) is a server; use 'tabstore export' (or pg_dump) instead")
        case let .fileExists(path): return .request(.fileExists, "\(path) already exists; pass --force to replace it")
        case let .notARegularFile(path, kind): return .request(.notARegularFile, "cannot replace \(path): it is \(kind), not a regular file")
        case let .fileIsTheDatabase(path): return .request(.fileIsTheDatabase, "\(path) is the database being read; write the copy to another file")
        // A server's database is there; only tabstore's tables are not yet.
        case let .databaseNotFound(path): return .request(.databaseNotFound, isServer(path) ? "database \(path) has no tabstore tables yet" : "no database at \(path) yet")
        case let .invalidOption(name, reason): return .request(.invalidOption, "invalid option \(name): \(reason)")
        case let .syncNeedsAFile(database): return .request(.syncNeedsAFile, "\(quoted(database)) is a server: a device that syncs keeps its tabs in a file")
        case let .syncNotStarted(path): return .request(.syncNotStarted, "\(quoted(path)) does not sync: 'tabstore sync SERVER' (TabStore.startSync) starts it")
        case let .syncsWithAnotherServer(path, server): return .request(.syncsWithAnotherServer, "\(quoted(path)) syncs with \(quoted(server)); a device syncs with one server")
        case let .deviceAndServer(path): return .request(.deviceAndServer, "\(quoted(path)) cannot both sync with a server and serve devices")
        case let .invalidMutation(reason): return .request(.invalidMutation, "invalid mutation: \(reason)")
        case let .replacesUnseenTabs(set, count):
            return .request(.replacesUnseenTabs, "set \(quoted(set)) has \(count == 1 ? "a tab" : "\(count) tabs") this device had not seen (added elsewhere): replacing the set would erase \(count == 1 ? "it" : "them"), so it was not replaced")
        case let .syncLimitExceeded(limit, maximum, found):
            return .request(.syncLimitExceeded, "\(found.map(String.init) ?? "more than \(maximum)") \(limit): a sync server takes at most \(maximum)")
        case let .schemaTooNew(path, found, supported):
            return .database(.schemaTooNew, "database \(path) has schema version \(found), newer than this tabstore supports (\(supported)); upgrade tabstore")
        case let .notATabStore(path): return .database(.notATabStore, isServer(path)
            ? "database \(path) has tables with tabstore's names (tab_set, tab, closed_tab, change or name_revision) but no tabstore_schema table; use another database or schema"
            : "\(path) is a SQLite database of another program, not a tabstore database")
        case let .foreignSchema(path, version, difference):
            let type = difference.objectType
            let object = "\(type.first.map { "aeiou".contains($0) } == true ? "an" : "a") \(type) \(quoted(difference.name))"
            let schema = "tabstore's schema version \(version)"
            let finding = switch difference.kind {
            case .extra: "holds \(object) that \(schema) does not have"
            case .missing: "lacks the \(type) \(quoted(difference.name)) that \(schema) has"
            case .changed: "holds \(object) that is not as \(schema) defines it"
            }
            return .database(.foreignSchema, "\(path) \(finding); tabstore does not open it")
        case let .notADatabase(path): return .database(.notADatabase, "\(path) is not a database")
        case let .corrupt(path): return .database(.corrupt, "database \(path) is corrupt")
        case let .readOnly(path): return .database(.readOnly, "database \(path) is read-only")
        case let .folderNotWritable(path, folder, forWriting): return .database(.folderNotWritable, forWriting
            ? "cannot write database \(path): its folder \(folder) is not writable, and SQLite needs to create the database's -wal and -shm files there"
            : "cannot read database \(path): its folder \(folder) is not writable, and SQLite needs to create the database's -shm file there to read the changes in its -wal file")
        case let .sideFilesNotWritable(path, walIsEmpty):
            let cause: ErrorMessage = "cannot write database \(path): its -wal or -shm file is not writable by this user (another user's read leaves them, as theirs)"
            return .database(.sideFilesNotWritable, walIsEmpty ? "\(cause); with no process using the database, remove \(path)-wal and \(path)-shm" : cause)
        case let .cannotFollowChanges(path, reason): return .database(.cannotFollowChanges, "cannot follow changes to database \(path): \(reason)")
        case let .diskFull(path): return .database(.diskFull, "cannot write \(path): the disk is full")
        case let .busy(path): return .database(.busy, "database \(path) is still locked by another process after the busy timeout")
        // An empty path is no name to write in the sentence.
        case let .cannotOpen(path, reason): return .database(.cannotOpen, path.isEmpty ? "cannot open a database: \(reason)" : "cannot open database \(path): \(reason)")
        case let .damagedSet(set, damage): return .database(.damagedSet, set: set, "set \(quoted(set)) is damaged: \(damage)")
        case let .damagedSyncLog(path, mutation):
            let what = mutation == 0 ? "its sync log's device row (its numbers or its id)" : "mutation \(mutation) of its sync log"
            return .database(.damagedSyncLog, "database \(path) is damaged: \(what) is not as tabstore writes it")
        case let .cannotWrite(path, reason): return .database(.cannotWrite, path.isEmpty ? "cannot write a file: \(reason)" : "cannot write \(path): \(reason)")
        case let .sqlite(path, code, message, _): return .database(.sqlite, "SQLite error \(code) on \(path): \(message)")
        case let .internalFailure(database, reason): return .database(.internalFailure, "tabstore failed on \(database): \(reason) (a defect in tabstore: please report it)")
        case let .tooManyPendingEdits(set, limit):
            return .database(.tooManyPendingEdits, set: set, "\(limit) edits of set \(quoted(set)) are already waiting to be written; this one was not made")
        case let .postgresLibraryMissing(reason):
            return .database(.postgresLibraryMissing, "a postgresql:// database needs libpq, which could not be loaded (\(reason)); install it (apt-get install libpq5) or name it in TABSTORE_LIBPQ")
        case let .invalidDatabaseURL(url, reason): return .database(.invalidDatabaseURL, "invalid database URL \(quoted(url)): \(reason)")
        case let .serverUnavailable(server, reason): return .database(.serverUnavailable, server: server, "cannot connect to \(server): \(reason)")
        case let .connectionLost(server, outcomeUnknown): return .database(.connectionLost, server: server, outcomeUnknown
            ? "lost the connection to \(server) while committing; the change may or may not have been saved"
            : "lost the connection to \(server); nothing was changed")
        case let .server(server, sqlState, message, _): return .database(.server, server: server, "PostgreSQL error \(sqlState) on \(server): \(message)")
        case let .serverNotAnswering(server, seconds, outcomeUnknown): return .database(.serverNotAnswering, server: server, seconds: seconds, outcomeUnknown
            ? "\(server) stopped answering after \(seconds) s while committing; the change may or may not have been saved"
            : "\(server) stopped answering after \(seconds) s; nothing was changed")
        case let .standby(server): return .database(.standby, server: server, "\(server) is a standby server (a read-only replica) and cannot take writes; use the primary")
        case let .permissionDenied(server, role, privilege, object): return .database(.permissionDenied, server: server, privilege.isEmpty
            ? "role \(quoted(role)) lacks a privilege tabstore needs on \(server)"
            : privilege == "OWNER"
            ? "role \(quoted(role)) must own \(object) in \(server) to upgrade tabstore's schema"
            : "role \(quoted(role)) lacks the \(privilege) privilege on \(object) in \(server)")
        case let .notUTF8(server, encoding):
            return .database(.notUTF8, server: server, "database \(server) is encoded in \(encoding); tabstore needs a UTF8 database (CREATE DATABASE ... ENCODING 'UTF8')")
        case let .schemaNotFound(server, schema):
            return .database(.schemaNotFound, server: server, "schema \(quoted(schema)) does not exist in database \(server); create it, or name another in the URL's search_path")
        case let .invalidSyncMessage(reason): return .database(.invalidSyncMessage, "invalid sync message: \(reason)")
        case let .syncVersionNotSupported(version, readable):
            return .database(.syncVersionNotSupported, "sync message of version \(version) refused: this tabstore reads version \(readable.map(String.init).joined(separator: ", "))")
        case let .deviceCopied(device, number):
            return .database(.deviceCopied, "two files sync as device \(quoted(device)) (a copy of its file, or an older copy put back): the server's mutation \(number) of it is not this file's, so this file's edits from there on are not applied")
        case let .serverBehind(server, device, serverSettled, settled):
            return .database(.serverBehind, "server \(quoted(server)) knows the edits of device \(quoted(device)) through mutation \(serverSettled), though it settled them through \(settled) (it was replaced, or put back from an older copy): the device's edits from there on would never be applied, so they stay pending")
        }
    }
}

/// Whether a store's location names a server: the PostgreSQL backend names one as
/// `postgresql://user@host:port/database`, whatever scheme the caller wrote.
private func isServer(_ location: String) -> Bool {
    location.hasPrefix("postgresql://")
}

private func outOfRange(_ index: String, count: Int, set: String) -> ErrorMessage {
    if count == 0 { return "index \(index) is out of range: set \(quoted(set)) has no tabs" }
    return "index \(index) is out of range for set \(quoted(set)) (valid: 0...\(count - 1) or -\(count)...-1)"
}

private func insertionOutOfRange(_ index: String, count: Int, set: String) -> ErrorMessage {
    "insertion index \(index) is out of range for set \(quoted(set)) (valid: 0...\(count) or -\(count + 1)...-1)"
}
