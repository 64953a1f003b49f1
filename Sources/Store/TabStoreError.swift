/// Every way a `TabStore` call can fail. A failed call changes nothing.
///
/// Match on ``code`` to react, for example
/// `catch let error as TabStoreError where error.code == .busy`; `description` is a
/// sentence for a person, ``isDatabaseProblem`` says whether the request or the
/// database is at fault, and the details (``setName``, ``title``, ``index``,
/// ``tabCount``, ``server``, ``secondsWaited``) are there for the codes that carry them.
///
/// New codes may come in later versions, in both groups (a request that cannot be done,
/// and a problem with the database or its server): a `switch` on ``code`` ends with a
/// `default` that uses ``isDatabaseProblem`` and `description`.
public struct TabStoreError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// What went wrong, with its details.
    package let reason: Reason

    package init(_ reason: Reason) {
        self.reason = reason
    }

    /// What went wrong, to match on: `catch let error as TabStoreError where error.code == .busy`.
    public var code: Code { reason.code }

    /// What went wrong, with its details: one case per ``Code``. Inside the package only,
    /// so that a case can be added without breaking a caller's exhaustive `switch`.
    package enum Reason: Sendable, Hashable, Codable {
        // The request cannot be done with the data as it is.
        case setNotFound(set: String)
        case setAlreadyExists(set: String)
        case tabNotFound(title: String, set: String)
        case tabIDNotFound(id: TabID, set: String)
        case indexOutOfRange(index: Int, count: Int, set: String)
        case indexTextOutOfRange(index: String, count: Int, set: String)
        case ambiguousTab(text: String, indexedTitle: String?, titledIndex: Int, set: String)
        case insertionIndexOutOfRange(index: Int, count: Int, set: String)
        case insertionIndexTextOutOfRange(index: String, count: Int, set: String)
        case offsetOutOfRange(offset: Int, count: Int, set: String)
        case insertionOffsetOutOfRange(offset: Int, count: Int, set: String)
        case duplicateTitle(title: String, set: String)
        case repeatedTitle(title: String)
        case invalidTitle(title: String, problem: NameProblem)
        case invalidSetName(name: String, problem: NameProblem)
        case emptySet(set: String)
        case revisionMismatch(set: String, expected: Int, actual: Int)
        case missingSetRevision(set: String, expected: Int, actual: Int)
        case noClosedTabs(set: String)
        case payloadTooLarge(bytes: Int, limit: Int)
        case emptyPayloadKey
        case invalidPayload(reason: String)
        case payloadContainsNUL(key: String, inValue: Bool)
        case invalidDocument(reason: String)
        case tabIDInUse(id: TabID, set: String, place: String)
        case backupNeedsFile(database: String)
        case syncNeedsAFile(database: String)
        case syncNotStarted(path: String)
        case syncsWithAnotherServer(path: String, server: String)
        case deviceAndServer(path: String)
        /// A device's mutation no store can apply as sent.
        case invalidMutation(reason: String)
        /// A put would erase `count` tabs of `set` that its device had not seen.
        case replacesUnseenTabs(set: String, count: Int)

        // The database file cannot serve the request.
        case schemaTooNew(path: String, found: Int, supported: Int)
        case notATabStore(path: String)
        case foreignSchema(path: String, version: Int, difference: SchemaDifference)
        case notADatabase(path: String)
        case corrupt(path: String)
        case readOnly(path: String)
        case folderNotWritable(path: String, folder: String, forWriting: Bool)
        case sideFilesNotWritable(path: String, walIsEmpty: Bool)
        case cannotFollowChanges(path: String, reason: String)
        case diskFull(path: String)
        case busy(path: String)
        case cannotOpen(path: String, reason: String)
        case damagedSet(set: String, damage: SetDamage)
        /// A device's log of pending edits holds `mutation` in a form tabstore never writes.
        case damagedSyncLog(path: String, mutation: Int)
        case fileExists(path: String)
        case notARegularFile(path: String, kind: FileKind)
        case fileIsTheDatabase(path: String)
        case cannotWrite(path: String, reason: String)
        case databaseNotFound(path: String)
        case invalidOption(name: String, reason: String)
        case sqlite(path: String, code: Int32, message: String, sql: String?)

        // A PostgreSQL server cannot serve the request. `server` names it as
        // `postgresql://user@host:port/database`, never with a password.
        case postgresLibraryMissing(reason: String)
        case invalidDatabaseURL(url: String, reason: String)
        case serverUnavailable(server: String, reason: String)
        case connectionLost(server: String, outcomeUnknown: Bool)
        case server(server: String, sqlState: String, message: String, sql: String?)
        case serverNotAnswering(server: String, seconds: Int, outcomeUnknown: Bool)
        case standby(server: String)
        case permissionDenied(server: String, role: String, privilege: String, object: String)
        case notUTF8(server: String, encoding: String)
        case schemaNotFound(server: String, schema: String)

        case internalFailure(database: String, reason: String)
        case editCancelled(set: String)
        case tooManyPendingEdits(set: String, limit: Int)
        case invalidSyncMessage(reason: String)
        /// A sync message past one of ``TabSyncLimits``: `limit` names it.
        /// `found`: nil when the message was read only as far as the limit.
        case syncLimitExceeded(limit: String, maximum: Int, found: Int?)
        /// A sync message of a version the receiver does not read; it reads `readable`.
        case syncVersionNotSupported(version: Int, readable: [Int])
        /// Two files sync as one device: `number` is the device's mutation that showed it.
        case deviceCopied(device: String, number: Int)
        /// The server knows the device's mutations through `serverSettled` only, though it
        /// settled them through `settled`: it was replaced, or put back from an older copy.
        case serverBehind(server: String, device: String, serverSettled: Int, settled: Int)
    }

    public enum FileKind: Sendable, Hashable, Codable {
        case directory
        case symbolicLink
        case characterDevice
        case blockDevice
        /// A FIFO.
        case namedPipe
        case socket
        /// A kind this system has that the others do not name.
        case other
    }

    /// What in a file's schema is not tabstore's (see ``foreignSchema(path:version:difference:)``).
    public struct SchemaDifference: Sendable, Hashable, Codable {
        public enum Kind: Sendable, Hashable, Codable {
            /// The file holds the object; tabstore's schema does not.
            case extra
            /// tabstore's schema has the object; the file does not.
            case missing
            /// Both have it, defined otherwise (a column more or less, another type,
            /// constraint or default, another table for an index).
            case changed
        }

        public let kind: Kind
        /// What SQLite calls the object: `table`, `index`, `view` or `trigger`.
        public let objectType: String
        public let name: String

        public init(kind: Kind, objectType: String, name: String) {
            self.kind = kind
            self.objectType = objectType
            self.name = name
        }
    }

    /// Why a title or set name is refused.
    public enum NameProblem: Sendable, Hashable, Codable {
        case empty
        case tooLong(characters: Int)
        /// More UTF-8 bytes than ``maximumNameBytes`` (a few characters can carry many
        /// combining marks).
        case tooManyBytes(bytes: Int)
        case controlCharacter(scalar: UInt32)
        /// Only whitespace and invisible characters.
        case noVisibleCharacter
        /// A bidirectional control (U+202A-U+202E, U+2066-U+2069) or U+2028/U+2029.
        case misleadingCharacter(scalar: UInt32)
    }

    /// True for problems with the database file rather than with the request.
    public var isDatabaseProblem: Bool {
        switch reason {
        case .setNotFound, .setAlreadyExists, .tabNotFound, .tabIDNotFound, .payloadTooLarge, .emptyPayloadKey, .invalidPayload, .payloadContainsNUL, .indexOutOfRange, .indexTextOutOfRange, .ambiguousTab,
             .insertionIndexOutOfRange, .insertionIndexTextOutOfRange, .offsetOutOfRange, .insertionOffsetOutOfRange, .duplicateTitle, .repeatedTitle, .invalidTitle, .invalidSetName, .emptySet,
             .revisionMismatch, .missingSetRevision, .noClosedTabs, .invalidDocument, .tabIDInUse, .backupNeedsFile, .fileExists, .notARegularFile,
             .fileIsTheDatabase, .databaseNotFound, .invalidOption, .editCancelled, .syncNeedsAFile, .syncNotStarted, .syncsWithAnotherServer, .deviceAndServer,
             .invalidMutation, .replacesUnseenTabs, .syncLimitExceeded:
            return false
        case .schemaTooNew, .notATabStore, .foreignSchema, .notADatabase, .corrupt, .readOnly, .folderNotWritable, .sideFilesNotWritable, .cannotFollowChanges, .diskFull, .busy,
             .cannotOpen, .damagedSet, .damagedSyncLog, .sqlite, .cannotWrite, .postgresLibraryMissing, .invalidDatabaseURL,
             .serverUnavailable, .connectionLost, .server, .serverNotAnswering, .standby, .permissionDenied, .notUTF8,
             .schemaNotFound, .internalFailure, .tooManyPendingEdits, .invalidSyncMessage, .deviceCopied, .serverBehind,
             .syncVersionNotSupported:
            return true
        }
    }

    /// The database refused the data itself (a constraint, a value or byte sequence it cannot
    /// hold), not the moment: the same write fails again however often it is tried.
    package var isDataError: Bool {
        switch reason {
        // SQLITE_TOOBIG, SQLITE_CONSTRAINT and SQLITE_MISMATCH, with their extended codes.
        case let .sqlite(_, code, _, _): [18, 19, 20].contains(code & 0xFF)
        // Data exceptions and integrity constraint violations.
        case let .server(_, sqlState, _, _): sqlState.hasPrefix("22") || sqlState.hasPrefix("23")
        default: false
        }
    }

    /// The message for a person: names and paths made visible (control and invisible
    /// characters as escapes), long names shortened, so that it stays one line that acts
    /// on no terminal.
    public var description: String { message.shown }

    /// The message in parts, to be written for a person (`shown`) or, names and paths
    /// whole and as they are, in JSON (`plain`).
    public var message: ErrorMessage {
        switch reason {
        case let .setNotFound(set):
            return "no tab set named \(quoted(set))"
        case let .setAlreadyExists(set):
            return "a tab set named \(quoted(set)) already exists"
        case let .tabNotFound(title, set):
            return "no tab titled \(quoted(title)) in set \(quoted(set))"
        case let .tabIDNotFound(id, set):
            return "no tab with id \(id) in set \(quoted(set))"
        case let .payloadTooLarge(bytes, limit):
            return "tab data of \(bytes) bytes is over the limit of \(limit) bytes (keys and values, UTF-8)"
        case let .invalidPayload(reason):
            return "invalid tab data: \(reason)"
        case .emptyPayloadKey:
            return "a tab data key is empty"
        case let .payloadContainsNUL(key, inValue):
            return "\(inValue ? "the value of tab data key" : "tab data key") \(quoted(key)) contains a NUL character (U+0000), which no database of tabstore's can store"
        case let .indexOutOfRange(index, count, set):
            return outOfRange(String(index), count: count, set: set)
        case let .indexTextOutOfRange(index, count, set):
            return outOfRange(index, count: count, set: set)
        case let .ambiguousTab(text, indexedTitle, titledIndex, set):
            let shown = ErrorMessage.Name(text, quote: "", limit: 60)
            let index: ErrorMessage = indexedTitle.map { "index \(shown) is the tab \(quoted($0))" } ?? "index \(shown) is out of range"
            return "\(quoted(text)) is ambiguous in set \(quoted(set)): \(index), and the tab at index \(titledIndex) is titled \(quoted(text)); say '--index \(shown)' or '--title \(shown)'"
        case let .insertionIndexOutOfRange(index, count, set):
            return insertionOutOfRange(String(index), count: count, set: set)
        case let .insertionIndexTextOutOfRange(index, count, set):
            return insertionOutOfRange(index, count: count, set: set)
        case let .offsetOutOfRange(offset, count, set):
            if count == 0 { return "offset \(offset) is out of range: set \(quoted(set)) has no tabs" }
            return "offset \(offset) is out of range for set \(quoted(set)) (valid: 0...\(count - 1))"
        case let .insertionOffsetOutOfRange(offset, count, set):
            if count == 0 { return "insertion offset \(offset) is out of range: set \(quoted(set)) has no tabs (valid: 0)" }
            return "insertion offset \(offset) is out of range for set \(quoted(set)) (valid: 0...\(count))"
        case let .duplicateTitle(title, set):
            return "set \(quoted(set)) already has a tab titled \(quoted(title))"
        case let .repeatedTitle(title):
            return "title \(quoted(title)) is given twice"
        case let .invalidTitle(title, problem):
            return "invalid title \(quoted(title)): \(problem)"
        case let .invalidSetName(name, problem):
            return "invalid set name \(quoted(name)): \(problem)"
        case let .emptySet(set):
            return "set \(quoted(set)) has no tabs"
        case let .revisionMismatch(set, expected, actual):
            if expected > actual { return "set \(quoted(set)) never reached revision \(expected) (it is at revision \(actual))" }
            if expected < 0 { return "set \(quoted(set)) was never at revision \(expected): revisions are not negative (it is at revision \(actual))" }
            return "set \(quoted(set)) changed since revision \(expected) (now \(actual))"
        case let .missingSetRevision(set, expected, actual):
            if actual == 0 { return "set \(quoted(set)) does not exist, so it is not at revision \(expected)" }
            return "set \(quoted(set)) does not exist: its name was left at revision \(actual), not \(expected)"
        case let .noClosedTabs(set):
            return "set \(quoted(set)) has no removed tab to reopen"
        case let .invalidDocument(reason):
            return "invalid import document: \(reason)"
        case let .tabIDInUse(id, set, place) where place.isEmpty:
            return "id \(id) already belongs to a tab in set \(quoted(set))"
        case let .tabIDInUse(id, set, place):
            return "cannot import \(place): id \(id) already belongs to a tab in set \(quoted(set)) (leave out the document's \"ids\" to give its tabs new ones)"
        case let .backupNeedsFile(database):
            return "backup copies a database file, and \(database) is a server; use 'tabstore export' (or pg_dump) instead"
        case let .schemaTooNew(path, found, supported):
            return "database \(path) has schema version \(found), newer than this tabstore supports (\(supported)); upgrade tabstore"
        case let .notATabStore(path):
            if isServer(path) {
                return "database \(path) has tables with tabstore's names (tab_set, tab, closed_tab, change or name_revision) but no tabstore_schema table; use another database or schema"
            }
            return "\(path) is a SQLite database of another program, not a tabstore database"
        case let .foreignSchema(path, version, difference):
            let type = difference.objectType
            let object = "\(type.first.map { "aeiou".contains($0) } == true ? "an" : "a") \(type) \(quoted(difference.name))"
            let schema = "tabstore's schema version \(version)"
            let finding = switch difference.kind {
            case .extra: "holds \(object) that \(schema) does not have"
            case .missing: "lacks the \(type) \(quoted(difference.name)) that \(schema) has"
            case .changed: "holds \(object) that is not as \(schema) defines it"
            }
            return "\(path) \(finding); tabstore does not open it"
        case let .notADatabase(path):
            return "\(path) is not a database"
        case let .corrupt(path):
            return "database \(path) is corrupt"
        case let .readOnly(path):
            return "database \(path) is read-only"
        case let .folderNotWritable(path, folder, forWriting):
            if forWriting {
                return "cannot write database \(path): its folder \(folder) is not writable, and SQLite needs to create the database's -wal and -shm files there"
            }
            return "cannot read database \(path): its folder \(folder) is not writable, and SQLite needs to create the database's -shm file there to read the changes in its -wal file"
        case let .sideFilesNotWritable(path, walIsEmpty):
            let cause: ErrorMessage = "cannot write database \(path): its -wal or -shm file is not writable by this user (another user's read leaves them, as theirs)"
            return walIsEmpty ? "\(cause); with no process using the database, remove \(path)-wal and \(path)-shm" : cause
        case let .cannotFollowChanges(path, reason):
            return "cannot follow changes to database \(path): \(reason)"
        case let .diskFull(path):
            return "cannot write \(path): the disk is full"
        case let .busy(path):
            return "database \(path) is still locked by another process after the busy timeout"
        case let .databaseNotFound(path):
            // A server's database is there; only tabstore's tables are not yet.
            if isServer(path) { return "database \(path) has no tabstore tables yet" }
            return "no database at \(path) yet"
        case let .cannotOpen(path, reason):
            // An empty path is no name to write in the sentence.
            if path.isEmpty { return "cannot open a database: \(reason)" }
            return "cannot open database \(path): \(reason)"
        case let .damagedSet(set, damage):
            return "set \(quoted(set)) is damaged: \(damage)"
        case let .damagedSyncLog(path, mutation):
            // Mutation 0 is the device's row of the log.
            let what = mutation == 0 ? "its sync log's device row (its numbers or its id)" : "mutation \(mutation) of its sync log"
            return "database \(path) is damaged: \(what) is not as tabstore writes it"
        case let .fileExists(path):
            return "\(path) already exists; pass --force to replace it"
        case let .notARegularFile(path, kind):
            return "cannot replace \(path): it is \(kind), not a regular file"
        case let .fileIsTheDatabase(path):
            return "\(path) is the database being read; write the copy to another file"
        case let .cannotWrite(path, reason):
            if path.isEmpty { return "cannot write a file: \(reason)" }
            return "cannot write \(path): \(reason)"
        case let .sqlite(path, code, message, _):
            return "SQLite error \(code) on \(path): \(message)"
        case let .postgresLibraryMissing(reason):
            return "a postgresql:// database needs libpq, which could not be loaded (\(reason)); install it (apt-get install libpq5) or name it in TABSTORE_LIBPQ"
        case let .invalidDatabaseURL(url, reason):
            return "invalid database URL \(quoted(url)): \(reason)"
        case let .serverUnavailable(server, reason):
            return "cannot connect to \(server): \(reason)"
        case let .connectionLost(server, outcomeUnknown):
            if outcomeUnknown { return "lost the connection to \(server) while committing; the change may or may not have been saved" }
            return "lost the connection to \(server); nothing was changed"
        case let .server(server, sqlState, message, _):
            return "PostgreSQL error \(sqlState) on \(server): \(message)"
        case let .serverNotAnswering(server, seconds, outcomeUnknown):
            if outcomeUnknown { return "\(server) stopped answering after \(seconds) s while committing; the change may or may not have been saved" }
            return "\(server) stopped answering after \(seconds) s; nothing was changed"
        case let .standby(server):
            return "\(server) is a standby server (a read-only replica) and cannot take writes; use the primary"
        case let .permissionDenied(server, role, privilege, object):
            if privilege.isEmpty { return "role \(quoted(role)) lacks a privilege tabstore needs on \(server)" }
            if privilege == "OWNER" { return "role \(quoted(role)) must own \(object) in \(server) to upgrade tabstore's schema" }
            return "role \(quoted(role)) lacks the \(privilege) privilege on \(object) in \(server)"
        case let .notUTF8(server, encoding):
            return "database \(server) is encoded in \(encoding); tabstore needs a UTF8 database (CREATE DATABASE ... ENCODING 'UTF8')"
        case let .schemaNotFound(server, schema):
            return "schema \(quoted(schema)) does not exist in database \(server); create it, or name another in the URL's search_path"
        case let .invalidOption(name, reason):
            return "invalid option \(name): \(reason)"
        case let .internalFailure(database, reason):
            return "tabstore failed on \(database): \(reason) (a defect in tabstore: please report it)"
        case let .editCancelled(set):
            return "the edit of set \(quoted(set)) was cancelled before it was written"
        case let .tooManyPendingEdits(set, limit):
            return "\(limit) edits of set \(quoted(set)) are already waiting to be written; this one was not made"
        case let .syncNeedsAFile(database):
            return "\(quoted(database)) is a server: a device that syncs keeps its tabs in a file"
        case let .syncNotStarted(path):
            return "\(quoted(path)) does not sync: 'tabstore sync SERVER' (TabStore.startSync) starts it"
        case let .invalidSyncMessage(reason):
            return "invalid sync message: \(reason)"
        case let .syncLimitExceeded(limit, maximum, found):
            return "\(found.map(String.init) ?? "more than \(maximum)") \(limit): a sync server takes at most \(maximum)"
        case let .syncVersionNotSupported(version, readable):
            return "sync message of version \(version) refused: this tabstore reads version \(readable.map(String.init).joined(separator: ", "))"
        case let .invalidMutation(reason):
            return "invalid mutation: \(reason)"
        case let .replacesUnseenTabs(set, count):
            return "set \(quoted(set)) has \(count == 1 ? "a tab" : "\(count) tabs") this device had not seen (added elsewhere): replacing the set would erase \(count == 1 ? "it" : "them"), so it was not replaced"
        case let .deviceCopied(device, number):
            return "two files sync as device \(quoted(device)) (a copy of its file, or an older copy put back): the server's mutation \(number) of it is not this file's, so this file's edits from there on are not applied"
        case let .serverBehind(server, device, serverSettled, settled):
            return "server \(quoted(server)) knows the edits of device \(quoted(device)) through mutation \(serverSettled), though it settled them through \(settled) (it was replaced, or put back from an older copy): the device's edits from there on would never be applied, so they stay pending"
        case let .syncsWithAnotherServer(path, server):
            return "\(quoted(path)) syncs with \(quoted(server)); a device syncs with one server"
        case let .deviceAndServer(path):
            return "\(quoted(path)) cannot both sync with a server and serve devices"
        }
    }
}

extension TabStoreError {
    /// What went wrong, as a name that stays: new codes may come in later versions, so a
    /// `switch` on a code ends with a `default` (``TabStoreError/isDatabaseProblem`` and
    /// `description` say the rest).
    public struct Code: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        public var description: String { rawValue }

        /// Whether `error` has this code, so that a code is a pattern:
        /// `catch TabStoreError.Code.busy`, or `case .busy:` in a `switch` on an error.
        public static func ~= (code: Code, error: TabStoreError) -> Bool {
            error.code == code
        }

        public static let setNotFound = Code(rawValue: "setNotFound")
        public static let setAlreadyExists = Code(rawValue: "setAlreadyExists")
        public static let tabNotFound = Code(rawValue: "tabNotFound")
        /// `TabRef.id` named no tab of the set.
        public static let tabIDNotFound = Code(rawValue: "tabIDNotFound")
        /// `count` is the number of tabs; valid indices are `0..<count` and `-count...-1`.
        public static let indexOutOfRange = Code(rawValue: "indexOutOfRange")
        /// An index typed as text (`TabRef.typed`) too large for any set, even for `Int`.
        public static let indexTextOutOfRange = Code(rawValue: "indexTextOutOfRange")
        /// A typed integer that is an index (of the tab titled `indexedTitle`, `nil` when out
        /// of range) and also the title of the tab at `titledIndex`.
        public static let ambiguousTab = Code(rawValue: "ambiguousTab")
        /// `count` is the number of tabs; valid insertion indices are `0...count` and `-(count + 1)...-1`.
        public static let insertionIndexOutOfRange = Code(rawValue: "insertionIndexOutOfRange")
        /// An insertion index typed as text, too large for any set, even for `Int`.
        public static let insertionIndexTextOutOfRange = Code(rawValue: "insertionIndexTextOutOfRange")
        /// An offset (SwiftUI's `onMove` and `onDelete`: counted from the start, never negative)
        /// that names no tab; `count` is the number of tabs, valid offsets are `0..<count`.
        public static let offsetOutOfRange = Code(rawValue: "offsetOutOfRange")
        /// A destination offset (SwiftUI's `onMove` `toOffset`) outside `0...count`.
        public static let insertionOffsetOutOfRange = Code(rawValue: "insertionOffsetOutOfRange")
        public static let duplicateTitle = Code(rawValue: "duplicateTitle")
        /// The same title given twice in one call.
        public static let repeatedTitle = Code(rawValue: "repeatedTitle")
        public static let invalidTitle = Code(rawValue: "invalidTitle")
        public static let invalidSetName = Code(rawValue: "invalidSetName")
        /// `select` and `restore` need a tab to work on.
        public static let emptySet = Code(rawValue: "emptySet")
        /// A write made with `ifRevision:` found the set at another revision.
        public static let revisionMismatch = Code(rawValue: "revisionMismatch")
        /// A write made with `ifRevision:` to a set that does not exist, whose name is at
        /// revision `actual` (0 when never used; else where its last set left it).
        public static let missingSetRevision = Code(rawValue: "missingSetRevision")
        /// `reopen` found no removed tab to bring back.
        public static let noClosedTabs = Code(rawValue: "noClosedTabs")
        /// A payload over ``TabStore/payloadLimit`` bytes (keys and values, UTF-8).
        public static let payloadTooLarge = Code(rawValue: "payloadTooLarge")
        /// A payload key that is empty.
        public static let emptyPayloadKey = Code(rawValue: "emptyPayloadKey")
        /// A typed payload that cannot be stored (not a flat value) or read as the type asked.
        public static let invalidPayload = Code(rawValue: "invalidPayload")
        /// A payload key, or the value of `key` when `inValue`, holds U+0000, which a
        /// PostgreSQL server cannot store: refused by every backend alike.
        public static let payloadContainsNUL = Code(rawValue: "payloadContainsNUL")
        /// An import document that is not the export format.
        public static let invalidDocument = Code(rawValue: "invalidDocument")
        /// An import document gives a tab (at `place`, as `sets[0].ids[2]`) an id that a tab
        /// of another set already has: a document exported from this database and imported
        /// under another name, say. Without its `ids` the document's tabs get new ones.
        public static let tabIDInUse = Code(rawValue: "tabIDInUse")
        /// `backup` copies a database file; `database` is a server.
        public static let backupNeedsFile = Code(rawValue: "backupNeedsFile")
        public static let schemaTooNew = Code(rawValue: "schemaTooNew")
        /// A SQLite database, but some other program's.
        public static let notATabStore = Code(rawValue: "notATabStore")
        /// A file with tabstore's mark whose schema is not tabstore's schema `version`: it
        /// holds a trigger, view, table or index that version does not have, lacks one it
        /// has, or holds one defined otherwise. Such a file could run another's SQL on every
        /// write, or show rows that are not there: nothing is read from it or written to it.
        public static let foreignSchema = Code(rawValue: "foreignSchema")
        public static let notADatabase = Code(rawValue: "notADatabase")
        public static let corrupt = Code(rawValue: "corrupt")
        /// The database takes no writes. `path` is the store's location: a file's path, or on
        /// a server its URL without the password (a database set read-only). The label stays
        /// `path`: an enum case's label cannot be renamed with the old one kept for a while.
        public static let readOnly = Code(rawValue: "readOnly")
        /// The file could be used, but its folder is not writable, and SQLite needs to create
        /// the database's `-wal` and `-shm` files there: to write (`forWriting`), or to read
        /// changes still waiting in its `-wal` file. Reads of a file without such changes work.
        public static let folderNotWritable = Code(rawValue: "folderNotWritable")
        /// The file is writable, but its `-wal` or `-shm` file is not: made by another user's
        /// read (SQLite makes them with the reader as owner), they stay until every connection
        /// is closed and a writer removes them. `walIsEmpty`: nothing is waiting in the `-wal`
        /// file, so removing both while no process has the database open loses nothing.
        public static let sideFilesNotWritable = Code(rawValue: "sideFilesNotWritable")
        /// Observing (`changes`, `observe`, a ``TabBarModel``) a database whose other
        /// processes' changes cannot be seen here: reads show it as it was when opened.
        public static let cannotFollowChanges = Code(rawValue: "cannotFollowChanges")
        public static let diskFull = Code(rawValue: "diskFull")
        /// Still locked by another connection after the busy timeout. `path` is the store's
        /// location, as for ``readOnly(path:)``.
        public static let busy = Code(rawValue: "busy")
        public static let cannotOpen = Code(rawValue: "cannotOpen")
        /// The set's rows break the tab rules, or hold an integer no tabstore writes (`info`
        /// lists each thing wrong; this is the first): edited around tabstore. No write builds
        /// on such a set, and no read of it answers, since any index it gave could be wrong
        /// (``TabStore/tabSets()-8wjxc`` still lists it, with no selection outside it).
        public static let damagedSet = Code(rawValue: "damagedSet")
        /// A pending edit in a device's sync log is not as tabstore writes it (the file was
        /// edited by other means): no sync of that device goes on, since the edit can neither
        /// be sent nor planned again on the server's sets.
        public static let damagedSyncLog = Code(rawValue: "damagedSyncLog")
        /// A file a backup or export writes already exists, and replacing it was not asked for.
        public static let fileExists = Code(rawValue: "fileExists")
        /// Something other than a regular file is where a backup or export would write (a
        /// symbolic link, even to a regular file, a directory, a device, a named pipe, a
        /// socket): it is never replaced, even when replacing was asked for.
        public static let notARegularFile = Code(rawValue: "notARegularFile")
        /// A backup or export was asked to replace the database being read (or its WAL files).
        public static let fileIsTheDatabase = Code(rawValue: "fileIsTheDatabase")
        /// A file a backup or export writes could not be written; the old file, if any, is intact.
        public static let cannotWrite = Code(rawValue: "cannotWrite")
        /// No file at `path`, when opened with `createsMissingDatabase: false`.
        public static let databaseNotFound = Code(rawValue: "databaseNotFound")
        /// A `TabStore.Options` value no store can work with (a negative `closedTabLimit`, a
        /// poll interval of zero): nothing was opened.
        public static let invalidOption = Code(rawValue: "invalidOption")
        /// Any other SQLite failure, with its extended result code and message.
        /// `sql` is the statement that failed, for debugging: `description` leaves it out.
        public static let sqlite = Code(rawValue: "sqlite")
        /// libpq (Debian `libpq5`) could not be loaded; `reason` is the loader's.
        public static let postgresLibraryMissing = Code(rawValue: "postgresLibraryMissing")
        /// A database URL that cannot be used; `url` is shown without its password.
        public static let invalidDatabaseURL = Code(rawValue: "invalidDatabaseURL")
        /// No connection could be made: the server is down or unreachable, refused the
        /// login, or has no such database. `reason` is libpq's first line.
        public static let serverUnavailable = Code(rawValue: "serverUnavailable")
        /// The connection broke during a call. When `outcomeUnknown` is false the call's
        /// transaction had not been committed, so nothing changed; when true the commit had
        /// been sent and the server may or may not have applied it.
        public static let connectionLost = Code(rawValue: "connectionLost")
        /// Any other server error, with its SQLSTATE and message. `sql` is the statement,
        /// for debugging: `description` leaves it out.
        public static let server = Code(rawValue: "server")
        /// The server did not answer within `seconds` (the busy timeout and the server
        /// timeout); the connection was given up. `outcomeUnknown` as for `connectionLost`.
        public static let serverNotAnswering = Code(rawValue: "serverNotAnswering")
        /// The server is a standby (a read-only replica): writes need the primary.
        public static let standby = Code(rawValue: "standby")
        /// The role lacks a privilege tabstore needs: `privilege` (`SELECT`, `CREATE`...) on
        /// `object` (`table public.tab_set`); both empty when no missing privilege was found.
        public static let permissionDenied = Code(rawValue: "permissionDenied")
        /// The database's encoding is not UTF8, which tabstore needs.
        public static let notUTF8 = Code(rawValue: "notUTF8")
        /// The schema chosen for tabstore's tables (the URL's search_path, else `public`) does
        /// not exist.
        public static let schemaNotFound = Code(rawValue: "schemaNotFound")
        /// tabstore broke one of its own promises (a defect to report); nothing was changed.
        public static let internalFailure = Code(rawValue: "internalFailure")
        /// A ``TabBarModel`` edit cancelled (``TabBarModel/cancel(_:)``) before it was written.
        public static let editCancelled = Code(rawValue: "editCancelled")
        /// A ``TabBarModel`` already holds `limit` edits waiting to be written (another process
        /// has held the write lock that long, or the store is suspended); this one was not made.
        public static let tooManyPendingEdits = Code(rawValue: "tooManyPendingEdits")
        /// A server's store was asked to act as a syncing device: a device keeps its tabs in a file.
        public static let syncNeedsAFile = Code(rawValue: "syncNeedsAFile")
        /// A sync call on a file that has not started syncing (``TabStore/startSync(server:device:)-4hhw0``).
        public static let syncNotStarted = Code(rawValue: "syncNotStarted")
        /// A sync message (``TabSyncPush``, ``TabSyncPull`` or their results) of a format or
        /// version this library does not read, or that contradicts itself; nothing was applied.
        public static let invalidSyncMessage = Code(rawValue: "invalidSyncMessage")
        /// A sync message past one of ``TabSyncLimits`` (bytes, mutations, tabs, sets): refused
        /// whole, before any of it was applied. On a device, an edit whose mutation a server
        /// would refuse so: the edit is not made.
        public static let syncLimitExceeded = Code(rawValue: "syncLimitExceeded")
        /// A sync message of a version the receiver does not read; the error lists the
        /// versions it reads (``TabSyncFormat/readableVersions``).
        public static let syncVersionNotSupported = Code(rawValue: "syncVersionNotSupported")
        /// A device's mutation a server cannot apply as sent (an unknown kind, a nil or repeated
        /// tab id, a name or title no store holds): settled as refused, the push goes on.
        public static let invalidMutation = Code(rawValue: "invalidMutation")
        /// A device's edit of a whole set (an import, a replace) reached a server whose set has
        /// tabs the device had not seen: refused rather than erase them; the device pulls them.
        public static let replacesUnseenTabs = Code(rawValue: "replacesUnseenTabs")
        /// Two files sync as one device, a copy of a device's file or an older copy of it put
        /// back: their mutations share numbers, so the server cannot tell them apart. Nothing
        /// more of the file that found it out is applied (<doc:OfflineSync>).
        public static let deviceCopied = Code(rawValue: "deviceCopied")
        /// A server answers as though it had settled fewer of the device's mutations than it
        /// once said: it was replaced, or put back from an older copy. The device's edits
        /// stay pending, as the server would wait for the ones it lost (<doc:OfflineSync>).
        public static let serverBehind = Code(rawValue: "serverBehind")
        /// ``TabStore/startSync(server:device:)-4hhw0`` on a file that syncs with another server
        /// already: its cookie and mutation numbers are that server's.
        public static let syncsWithAnotherServer = Code(rawValue: "syncsWithAnotherServer")
        /// A file asked to be a device and a server at once: a device's file served a push or
        /// a pull, or a file that has served devices was to start syncing with a server. Its
        /// sets would be two servers'.
        public static let deviceAndServer = Code(rawValue: "deviceAndServer")
    }

    /// An error of code ``Code/setNotFound``.
    public static func setNotFound(set: String) -> TabStoreError { TabStoreError(.setNotFound(set: set)) }
    /// An error of code ``Code/setAlreadyExists``.
    public static func setAlreadyExists(set: String) -> TabStoreError { TabStoreError(.setAlreadyExists(set: set)) }
    /// An error of code ``Code/tabNotFound``.
    public static func tabNotFound(title: String, set: String) -> TabStoreError { TabStoreError(.tabNotFound(title: title, set: set)) }
    /// An error of code ``Code/tabIDNotFound``.
    public static func tabIDNotFound(id: TabID, set: String) -> TabStoreError { TabStoreError(.tabIDNotFound(id: id, set: set)) }
    /// An error of code ``Code/indexOutOfRange``.
    public static func indexOutOfRange(index: Int, count: Int, set: String) -> TabStoreError { TabStoreError(.indexOutOfRange(index: index, count: count, set: set)) }
    /// An error of code ``Code/indexTextOutOfRange``.
    public static func indexTextOutOfRange(index: String, count: Int, set: String) -> TabStoreError { TabStoreError(.indexTextOutOfRange(index: index, count: count, set: set)) }
    /// An error of code ``Code/ambiguousTab``.
    public static func ambiguousTab(text: String, indexedTitle: String?, titledIndex: Int, set: String) -> TabStoreError { TabStoreError(.ambiguousTab(text: text, indexedTitle: indexedTitle, titledIndex: titledIndex, set: set)) }
    /// An error of code ``Code/insertionIndexOutOfRange``.
    public static func insertionIndexOutOfRange(index: Int, count: Int, set: String) -> TabStoreError { TabStoreError(.insertionIndexOutOfRange(index: index, count: count, set: set)) }
    /// An error of code ``Code/insertionIndexTextOutOfRange``.
    public static func insertionIndexTextOutOfRange(index: String, count: Int, set: String) -> TabStoreError { TabStoreError(.insertionIndexTextOutOfRange(index: index, count: count, set: set)) }
    /// An error of code ``Code/offsetOutOfRange``.
    public static func offsetOutOfRange(offset: Int, count: Int, set: String) -> TabStoreError { TabStoreError(.offsetOutOfRange(offset: offset, count: count, set: set)) }
    /// An error of code ``Code/insertionOffsetOutOfRange``.
    public static func insertionOffsetOutOfRange(offset: Int, count: Int, set: String) -> TabStoreError { TabStoreError(.insertionOffsetOutOfRange(offset: offset, count: count, set: set)) }
    /// An error of code ``Code/duplicateTitle``.
    public static func duplicateTitle(title: String, set: String) -> TabStoreError { TabStoreError(.duplicateTitle(title: title, set: set)) }
    /// An error of code ``Code/repeatedTitle``.
    public static func repeatedTitle(title: String) -> TabStoreError { TabStoreError(.repeatedTitle(title: title)) }
    /// An error of code ``Code/invalidTitle``.
    public static func invalidTitle(title: String, problem: NameProblem) -> TabStoreError { TabStoreError(.invalidTitle(title: title, problem: problem)) }
    /// An error of code ``Code/invalidSetName``.
    public static func invalidSetName(name: String, problem: NameProblem) -> TabStoreError { TabStoreError(.invalidSetName(name: name, problem: problem)) }
    /// An error of code ``Code/emptySet``.
    public static func emptySet(set: String) -> TabStoreError { TabStoreError(.emptySet(set: set)) }
    /// An error of code ``Code/revisionMismatch``.
    public static func revisionMismatch(set: String, expected: Int, actual: Int) -> TabStoreError { TabStoreError(.revisionMismatch(set: set, expected: expected, actual: actual)) }
    /// An error of code ``Code/missingSetRevision``.
    public static func missingSetRevision(set: String, expected: Int, actual: Int) -> TabStoreError { TabStoreError(.missingSetRevision(set: set, expected: expected, actual: actual)) }
    /// An error of code ``Code/noClosedTabs``.
    public static func noClosedTabs(set: String) -> TabStoreError { TabStoreError(.noClosedTabs(set: set)) }
    /// An error of code ``Code/payloadTooLarge``.
    public static func payloadTooLarge(bytes: Int, limit: Int) -> TabStoreError { TabStoreError(.payloadTooLarge(bytes: bytes, limit: limit)) }
    /// An error of code ``Code/emptyPayloadKey``.
    public static var emptyPayloadKey: TabStoreError { TabStoreError(.emptyPayloadKey) }
    /// An error of code ``Code/invalidPayload``.
    public static func invalidPayload(reason: String) -> TabStoreError { TabStoreError(.invalidPayload(reason: reason)) }
    /// An error of code ``Code/payloadContainsNUL``.
    public static func payloadContainsNUL(key: String, inValue: Bool) -> TabStoreError { TabStoreError(.payloadContainsNUL(key: key, inValue: inValue)) }
    /// An error of code ``Code/invalidDocument``.
    public static func invalidDocument(reason: String) -> TabStoreError { TabStoreError(.invalidDocument(reason: reason)) }
    /// An error of code ``Code/tabIDInUse``.
    public static func tabIDInUse(id: TabID, set: String, place: String) -> TabStoreError { TabStoreError(.tabIDInUse(id: id, set: set, place: place)) }
    /// An error of code ``Code/backupNeedsFile``.
    public static func backupNeedsFile(database: String) -> TabStoreError { TabStoreError(.backupNeedsFile(database: database)) }
    /// An error of code ``Code/schemaTooNew``.
    public static func schemaTooNew(path: String, found: Int, supported: Int) -> TabStoreError { TabStoreError(.schemaTooNew(path: path, found: found, supported: supported)) }
    /// An error of code ``Code/notATabStore``.
    public static func notATabStore(path: String) -> TabStoreError { TabStoreError(.notATabStore(path: path)) }
    /// An error of code ``Code/foreignSchema``.
    public static func foreignSchema(path: String, version: Int, difference: SchemaDifference) -> TabStoreError { TabStoreError(.foreignSchema(path: path, version: version, difference: difference)) }
    /// An error of code ``Code/notADatabase``.
    public static func notADatabase(path: String) -> TabStoreError { TabStoreError(.notADatabase(path: path)) }
    /// An error of code ``Code/corrupt``.
    public static func corrupt(path: String) -> TabStoreError { TabStoreError(.corrupt(path: path)) }
    /// An error of code ``Code/readOnly``.
    public static func readOnly(path: String) -> TabStoreError { TabStoreError(.readOnly(path: path)) }
    /// An error of code ``Code/folderNotWritable``.
    public static func folderNotWritable(path: String, folder: String, forWriting: Bool) -> TabStoreError { TabStoreError(.folderNotWritable(path: path, folder: folder, forWriting: forWriting)) }
    /// An error of code ``Code/sideFilesNotWritable``.
    public static func sideFilesNotWritable(path: String, walIsEmpty: Bool) -> TabStoreError { TabStoreError(.sideFilesNotWritable(path: path, walIsEmpty: walIsEmpty)) }
    /// An error of code ``Code/cannotFollowChanges``.
    public static func cannotFollowChanges(path: String, reason: String) -> TabStoreError { TabStoreError(.cannotFollowChanges(path: path, reason: reason)) }
    /// An error of code ``Code/diskFull``.
    public static func diskFull(path: String) -> TabStoreError { TabStoreError(.diskFull(path: path)) }
    /// An error of code ``Code/busy``.
    public static func busy(path: String) -> TabStoreError { TabStoreError(.busy(path: path)) }
    /// An error of code ``Code/cannotOpen``.
    public static func cannotOpen(path: String, reason: String) -> TabStoreError { TabStoreError(.cannotOpen(path: path, reason: reason)) }
    /// An error of code ``Code/damagedSet``.
    public static func damagedSet(set: String, damage: SetDamage) -> TabStoreError { TabStoreError(.damagedSet(set: set, damage: damage)) }
    /// An error of code ``Code/damagedSyncLog``.
    public static func damagedSyncLog(path: String, mutation: Int) -> TabStoreError { TabStoreError(.damagedSyncLog(path: path, mutation: mutation)) }
    /// An error of code ``Code/fileExists``.
    public static func fileExists(path: String) -> TabStoreError { TabStoreError(.fileExists(path: path)) }
    /// An error of code ``Code/notARegularFile``.
    public static func notARegularFile(path: String, kind: FileKind) -> TabStoreError { TabStoreError(.notARegularFile(path: path, kind: kind)) }
    /// An error of code ``Code/fileIsTheDatabase``.
    public static func fileIsTheDatabase(path: String) -> TabStoreError { TabStoreError(.fileIsTheDatabase(path: path)) }
    /// An error of code ``Code/cannotWrite``.
    public static func cannotWrite(path: String, reason: String) -> TabStoreError { TabStoreError(.cannotWrite(path: path, reason: reason)) }
    /// An error of code ``Code/databaseNotFound``.
    public static func databaseNotFound(path: String) -> TabStoreError { TabStoreError(.databaseNotFound(path: path)) }
    /// An error of code ``Code/invalidOption``.
    public static func invalidOption(name: String, reason: String) -> TabStoreError { TabStoreError(.invalidOption(name: name, reason: reason)) }
    /// An error of code ``Code/sqlite``.
    public static func sqlite(path: String, code: Int32, message: String, sql: String?) -> TabStoreError { TabStoreError(.sqlite(path: path, code: code, message: message, sql: sql)) }
    /// An error of code ``Code/postgresLibraryMissing``.
    public static func postgresLibraryMissing(reason: String) -> TabStoreError { TabStoreError(.postgresLibraryMissing(reason: reason)) }
    /// An error of code ``Code/invalidDatabaseURL``.
    public static func invalidDatabaseURL(url: String, reason: String) -> TabStoreError { TabStoreError(.invalidDatabaseURL(url: url, reason: reason)) }
    /// An error of code ``Code/serverUnavailable``.
    public static func serverUnavailable(server: String, reason: String) -> TabStoreError { TabStoreError(.serverUnavailable(server: server, reason: reason)) }
    /// An error of code ``Code/connectionLost``.
    public static func connectionLost(server: String, outcomeUnknown: Bool) -> TabStoreError { TabStoreError(.connectionLost(server: server, outcomeUnknown: outcomeUnknown)) }
    /// An error of code ``Code/server``.
    public static func server(server: String, sqlState: String, message: String, sql: String?) -> TabStoreError { TabStoreError(.server(server: server, sqlState: sqlState, message: message, sql: sql)) }
    /// An error of code ``Code/serverNotAnswering``.
    public static func serverNotAnswering(server: String, seconds: Int, outcomeUnknown: Bool) -> TabStoreError { TabStoreError(.serverNotAnswering(server: server, seconds: seconds, outcomeUnknown: outcomeUnknown)) }
    /// An error of code ``Code/standby``.
    public static func standby(server: String) -> TabStoreError { TabStoreError(.standby(server: server)) }
    /// An error of code ``Code/permissionDenied``.
    public static func permissionDenied(server: String, role: String, privilege: String, object: String) -> TabStoreError { TabStoreError(.permissionDenied(server: server, role: role, privilege: privilege, object: object)) }
    public static func notUTF8(server: String, encoding: String) -> TabStoreError { TabStoreError(.notUTF8(server: server, encoding: encoding)) }
    /// An error of code ``Code/schemaNotFound``.
    public static func schemaNotFound(server: String, schema: String) -> TabStoreError { TabStoreError(.schemaNotFound(server: server, schema: schema)) }
    /// An error of code ``Code/internalFailure``.
    public static func internalFailure(database: String, reason: String) -> TabStoreError { TabStoreError(.internalFailure(database: database, reason: reason)) }
    /// An error of code ``Code/editCancelled``.
    public static func editCancelled(set: String) -> TabStoreError { TabStoreError(.editCancelled(set: set)) }
    /// An error of code ``Code/tooManyPendingEdits``.
    public static func tooManyPendingEdits(set: String, limit: Int) -> TabStoreError { TabStoreError(.tooManyPendingEdits(set: set, limit: limit)) }
    /// An error of code ``Code/syncNeedsAFile``.
    public static func syncNeedsAFile(database: String) -> TabStoreError { TabStoreError(.syncNeedsAFile(database: database)) }
    /// An error of code ``Code/syncNotStarted``.
    public static func syncNotStarted(path: String) -> TabStoreError { TabStoreError(.syncNotStarted(path: path)) }
    /// An error of code ``Code/invalidSyncMessage``.
    public static func invalidSyncMessage(reason: String) -> TabStoreError { TabStoreError(.invalidSyncMessage(reason: reason)) }
    /// An error of code ``Code/syncLimitExceeded``.
    public static func syncLimitExceeded(limit: String, maximum: Int, found: Int?) -> TabStoreError {
        TabStoreError(.syncLimitExceeded(limit: limit, maximum: maximum, found: found))
    }
    /// An error of code ``Code/syncVersionNotSupported``.
    public static func syncVersionNotSupported(version: Int, readable: [Int]) -> TabStoreError {
        TabStoreError(.syncVersionNotSupported(version: version, readable: readable))
    }
    /// An error of code ``Code/invalidMutation``.
    public static func invalidMutation(reason: String) -> TabStoreError { TabStoreError(.invalidMutation(reason: reason)) }
    /// An error of code ``Code/replacesUnseenTabs``.
    public static func replacesUnseenTabs(set: String, count: Int) -> TabStoreError { TabStoreError(.replacesUnseenTabs(set: set, count: count)) }
    /// An error of code ``Code/deviceCopied``.
    public static func deviceCopied(device: String, number: Int) -> TabStoreError { TabStoreError(.deviceCopied(device: device, number: number)) }
    /// An error of code ``Code/serverBehind``.
    public static func serverBehind(server: String, device: String, serverSettled: Int, settled: Int) -> TabStoreError {
        TabStoreError(.serverBehind(server: server, device: device, serverSettled: serverSettled, settled: settled))
    }
    /// An error of code ``Code/syncsWithAnotherServer``.
    public static func syncsWithAnotherServer(path: String, server: String) -> TabStoreError { TabStoreError(.syncsWithAnotherServer(path: path, server: server)) }
    /// An error of code ``Code/deviceAndServer``.
    public static func deviceAndServer(path: String) -> TabStoreError { TabStoreError(.deviceAndServer(path: path)) }
}

extension TabStoreError.Reason {
    var code: TabStoreError.Code {
        switch self {
        case .setNotFound: .setNotFound
        case .setAlreadyExists: .setAlreadyExists
        case .tabNotFound: .tabNotFound
        case .tabIDNotFound: .tabIDNotFound
        case .indexOutOfRange: .indexOutOfRange
        case .indexTextOutOfRange: .indexTextOutOfRange
        case .ambiguousTab: .ambiguousTab
        case .insertionIndexOutOfRange: .insertionIndexOutOfRange
        case .insertionIndexTextOutOfRange: .insertionIndexTextOutOfRange
        case .offsetOutOfRange: .offsetOutOfRange
        case .insertionOffsetOutOfRange: .insertionOffsetOutOfRange
        case .duplicateTitle: .duplicateTitle
        case .repeatedTitle: .repeatedTitle
        case .invalidTitle: .invalidTitle
        case .invalidSetName: .invalidSetName
        case .emptySet: .emptySet
        case .revisionMismatch: .revisionMismatch
        case .missingSetRevision: .missingSetRevision
        case .noClosedTabs: .noClosedTabs
        case .payloadTooLarge: .payloadTooLarge
        case .emptyPayloadKey: .emptyPayloadKey
        case .invalidPayload: .invalidPayload
        case .payloadContainsNUL: .payloadContainsNUL
        case .invalidDocument: .invalidDocument
        case .tabIDInUse: .tabIDInUse
        case .backupNeedsFile: .backupNeedsFile
        case .schemaTooNew: .schemaTooNew
        case .notATabStore: .notATabStore
        case .foreignSchema: .foreignSchema
        case .notADatabase: .notADatabase
        case .corrupt: .corrupt
        case .readOnly: .readOnly
        case .folderNotWritable: .folderNotWritable
        case .sideFilesNotWritable: .sideFilesNotWritable
        case .cannotFollowChanges: .cannotFollowChanges
        case .diskFull: .diskFull
        case .busy: .busy
        case .cannotOpen: .cannotOpen
        case .damagedSet: .damagedSet
        case .damagedSyncLog: .damagedSyncLog
        case .fileExists: .fileExists
        case .notARegularFile: .notARegularFile
        case .fileIsTheDatabase: .fileIsTheDatabase
        case .cannotWrite: .cannotWrite
        case .databaseNotFound: .databaseNotFound
        case .invalidOption: .invalidOption
        case .sqlite: .sqlite
        case .postgresLibraryMissing: .postgresLibraryMissing
        case .invalidDatabaseURL: .invalidDatabaseURL
        case .serverUnavailable: .serverUnavailable
        case .connectionLost: .connectionLost
        case .server: .server
        case .serverNotAnswering: .serverNotAnswering
        case .standby: .standby
        case .permissionDenied: .permissionDenied
        case .notUTF8: .notUTF8
        case .schemaNotFound: .schemaNotFound
        case .internalFailure: .internalFailure
        case .editCancelled: .editCancelled
        case .tooManyPendingEdits: .tooManyPendingEdits
        case .syncNeedsAFile: .syncNeedsAFile
        case .syncNotStarted: .syncNotStarted
        case .invalidSyncMessage: .invalidSyncMessage
        case .syncLimitExceeded: .syncLimitExceeded
        case .syncVersionNotSupported: .syncVersionNotSupported
        case .invalidMutation: .invalidMutation
        case .replacesUnseenTabs: .replacesUnseenTabs
        case .deviceCopied: .deviceCopied
        case .serverBehind: .serverBehind
        case .syncsWithAnotherServer: .syncsWithAnotherServer
        case .deviceAndServer: .deviceAndServer
        }
    }
}

extension TabStoreError.FileKind: CustomStringConvertible {
    public var description: String {
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

extension TabStoreError.NameProblem: CustomStringConvertible {
    public var description: String {
        switch self {
        case .empty: return "it is empty"
        case let .tooLong(count): return "it has \(count) characters, more than the \(maximumNameLength) allowed"
        case let .tooManyBytes(bytes): return "it has \(bytes) bytes of UTF-8, more than the \(maximumNameBytes) allowed"
        case let .controlCharacter(scalar): return "it contains the control character \(hexScalar(scalar))"
        case .noVisibleCharacter: return "it has no visible character"
        case let .misleadingCharacter(scalar):
            return "it contains \(hexScalar(scalar)), a bidirectional control or line separator that can make a display misleading"
        }
    }
}

/// `"text"`, shortened after 60 characters, as every message quotes a name: shown made
/// visible in a message for a person, whole and as it is in JSON.
func quoted(_ text: String) -> ErrorMessage.Name {
    ErrorMessage.Name(text, limit: 60)
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

private func hexScalar(_ value: UInt32) -> String {
    let hex = String(value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
}
