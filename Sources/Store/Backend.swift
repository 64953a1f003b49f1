import Dispatch

// The boundary between the tab rules and a database. The rules (Sources/Store/Rules) are
// written once: each reads a `SetSnapshot` and returns a `WritePlan` of typed writes.
// A backend reads snapshots and executes plans with its own statements: SQLite in
// Sources/Store/SQLite, PostgreSQL in the TabStorePostgres module. Reads outside a
// write go through `StoreRecords`: the sets and the rule check's rows (`TabRecords`) and
// what a server answers a device (`SyncServerRecords`). A backend that can be a device
// that syncs (a file) gives its log through `syncDevice` (Sources/Store/Sync/SyncRecords.swift);
// one that cannot (a server) has none.

/// A database that keeps tab sets: it runs the rules' plans and reads, and tells the
/// change hub about commits. `package`: apps get one through `TabStore`'s initializers.
package protocol TabStoreBackend: AnyObject, Sendable {
    /// The file's path, or a server as `postgresql://user@host:port/database` (no password).
    var location: String { get }

    /// One write transaction: `planning` reads through the reader (which locks what it
    /// reads) and returns its plan; the backend executes the plan and commits. A backend may
    /// call `planning` again, on a fresh snapshot, after a transient failure (a deadlock, a
    /// connection lost before COMMIT was sent): it must have no other effect. `progress` is
    /// told how many tabs the executed writes have inserted so far (or counted as done),
    /// restarting from 0 when the transaction runs again.
    func write(
        progress: ((Int) -> Void)?, _ planning: (any WriteReader) throws(TabStoreError) -> WritePlan
    ) throws(TabStoreError) -> WritePlan

    /// Runs `body` on a connection that never waits behind this store's writes; several
    /// reads that must agree go in `records.readTransaction`.
    func read<T: Sendable>(_ body: (any StoreRecords) throws(TabStoreError) -> T) throws(TabStoreError) -> T

    /// The changes after journal id `id`; none when `version` is given and nothing was
    /// committed since the read that returned it.
    func readJournal(after id: Int, unlessVersionIs version: Int?) throws(TabStoreError) -> JournalRead

    /// Closes the connections and calls `end`, which ends the process, without letting
    /// them go: for a process that ends without releasing its store (the CLI's `watch`).
    /// A file's last connection, closing, moves its write-ahead log into the file and
    /// removes the -wal and -shm files.
    func closeAndEnd(_ end: () -> Never) -> Never

    /// Why other connections' changes cannot be seen through this backend, when they
    /// cannot (a file read as it was when opened): observing then fails with it.
    var changesUnseen: TabStoreError? { get }

    /// Starts calling `handler` on `queue` whenever another connection may have
    /// committed (a hint: the journal is the truth), until the returned wake-up is cancelled.
    func startWakeups(pollInterval: Duration, queue: DispatchQueue, handler: @escaping @Sendable () -> Void) -> any Wakeup

    /// Schema version, set count, and the database's own check (SQLite's integrity_check;
    /// "" when it finds nothing); the rules' check runs above, over `read`.
    func info() throws(TabStoreError) -> StoreInfo

    /// Between `true` and the same caller's `false`, a write waiting for another connection's
    /// lock stops waiting at once and fails with `.busy`, having changed nothing: a
    /// suspending app's (see `SuspensionGate`), a cancelled ``TabBarModel`` edit's. A
    /// backend whose waits cannot be cut short says so in its own empty answer.
    func holdBackLockWaits(_ on: Bool)

    /// The backend as a device that syncs (a file can be one); nil for one that can only
    /// serve devices (a server).
    var syncDevice: (any SyncDeviceBackend)? { get }

    /// Writes a consistent copy of the whole database to `path` (see
    /// `TabStore.backup(to:replacing:progress:)`); a backend with no file to copy throws
    /// `.backupNeedsFile`.
    func backup(to path: String, replacing: Bool, progress: (BackupProgress) -> Void) throws(TabStoreError)
}

/// What a plan reads in a write: the rules' snapshots, and sync's tables.
package typealias WriteReader = SnapshotReader & SyncReader

/// What a read outside a write reads: the sets and the rule check's rows, and what a
/// server answers a device.
package typealias StoreRecords = TabRecords & SyncServerRecords

/// Something that calls the change hub back until cancelled.
package protocol Wakeup: Sendable {
    /// Whether notifications (not only a timer) are in use. For tests.
    var isWatching: Bool { get }
    /// The sets the observers follow now (nil: every set), told whenever that changes: a
    /// backend whose wake-ups can name a set wakes for these only.
    func follow(_ setNames: [String]?)
    func cancel()
}

extension Wakeup {
    /// A wake-up that cannot tell sets apart wakes for every set.
    package func follow(_ setNames: [String]?) {}
}

/// What one read of the journal found.
package struct JournalRead: Sendable {
    /// What the backend reads to know whether anything was committed since (SQLite's
    /// `PRAGMA data_version`); nil where every read looks at the journal itself.
    package let dataVersion: Int?
    package let changes: [(id: Int, change: TabChange)]

    package init(dataVersion: Int?, changes: [(id: Int, change: TabChange)]) {
        self.dataVersion = dataVersion
        self.changes = changes
    }
}

/// A set's row as the rules see it, with its selected tab.
package struct SetRecord: Sendable {
    /// Its row, or the name of a set the plan creates (no row yet).
    package let ref: SetRef
    package let name: String
    package let revision: Int
    /// The position of the tab at index 0 (see migration 0004); edits may move it.
    package var base: Int
    /// `nil` exactly when the set is empty.
    package let selected: TabRecord?

    package init(id: Int, name: String, revision: Int, base: Int, selected: TabRecord?) {
        ref = .id(id)
        self.name = name
        self.revision = revision
        self.base = base
        self.selected = selected
    }

    /// A set a plan creates: empty, at `revision`.
    init(newNamed name: String, revision: Int) {
        ref = .new(name: name)
        self.name = name
        self.revision = revision
        base = 0
        selected = nil
    }

    /// The row id; nil for a set the plan creates.
    package var id: Int? {
        if case let .id(id) = ref { return id }
        return nil
    }

    /// The same set at another revision.
    func atRevision(_ revision: Int) -> SetRecord {
        SetRecord(ref: ref, name: name, revision: revision, base: base, selected: selected)
    }

    private init(ref: SetRef, name: String, revision: Int, base: Int, selected: TabRecord?) {
        self.ref = ref
        self.name = name
        self.revision = revision
        self.base = base
        self.selected = selected
    }
}

/// A tab row's columns, declared once for every backend: each backend's reads select
/// them in this order (`selectList`) and its one decoder reads them back into a
/// `TabRecord`. `id` is the row id, `uuid` the tab's public id.
package enum TabColumn: Int, CaseIterable, Sendable {
    case id, title, uuid, payload

    package var name: String {
        switch self {
        case .id: "id"
        case .title: "title"
        case .uuid: "uuid"
        case .payload: "payload"
        }
    }

    /// The columns of table alias `table`, in order, joined by commas.
    package static func selectList(_ table: String) -> String {
        allCases.map { table + "." + $0.name }.joined(separator: ", ")
    }

    /// How many columns a tab takes in a row.
    package static let count = allCases.count
}

/// A tab's row; `index` is its 0-based place in the set (its position less the base).
/// `id` is the row id; `uuid` the tab's public, stable id.
package struct TabRecord: Equatable, Sendable {
    package let id: Int
    package let index: Int
    package let title: String
    package let uuid: TabID
    package let payload: [String: String]

    package init(id: Int, index: Int, title: String, uuid: TabID, payload: [String: String]) {
        self.id = id
        self.index = index
        self.title = title
        self.uuid = uuid
        self.payload = payload
    }

    /// The public value, as the set shows it.
    package func tab(selected: Bool) -> Tab {
        Tab(id: uuid, title: title, isSelected: selected, payload: payload)
    }

    /// The value events carry: no payload (see `Tab.payload`).
    func eventTab(selected: Bool) -> Tab {
        Tab(id: uuid, title: title, isSelected: selected)
    }
}

/// A removed tab a set remembers, with its old index and whether it was selected.
package struct ClosedTabRecord: Sendable {
    package let id: Int
    package let title: String
    package let position: Int
    package let wasSelected: Bool
    package let uuid: TabID
    package let payload: [String: String]

    package init(id: Int, title: String, position: Int, wasSelected: Bool, uuid: TabID, payload: [String: String]) {
        self.id = id
        self.title = title
        self.position = position
        self.wasSelected = wasSelected
        self.uuid = uuid
        self.payload = payload
    }
}

/// The reads of sets outside a write: what `TabStore`'s reading calls and the observers
/// use, and what the rules' check reads of the rows.
package protocol TabRecords: AnyObject {
    /// Runs `body` so that its reads see one snapshot.
    func readTransaction<T>(_ body: () throws(TabStoreError) -> T) throws(TabStoreError) -> T
    func setRecord(named name: String) throws(TabStoreError) -> SetRecord?
    /// Every set's name, sorted byte for byte.
    func setNames() throws(TabStoreError) -> [String]
    /// Every set without its tabs, sorted byte for byte by name.
    func setSummaries() throws(TabStoreError) -> [TabSetSummary]
    /// Titles of the set's removed tabs, newest first.
    func closedTabTitles(of set: SetRecord) throws(TabStoreError) -> [String]
    /// The newest `limit` changes of a set, newest first (see `TabStore.history`).
    func history(ofSet setName: String, limit: Int) throws(TabStoreError) -> [TabChange]
    /// The id of the newest change, 0 when there is none.
    func lastChangeID() throws(TabStoreError) -> Int

    // The rules' check (`RuleCheck`).
    /// Each set's shape.
    func rowsSummaries() throws(TabStoreError) -> [SetRowsSummary]
    /// Calls `body` with every tab's set name, title and stored data (the payload column as
    /// it is), in no order: what the rule check reads to check titles and data.
    func forEachTabText(_ body: (_ setName: String, _ title: String, _ payload: String?) -> Void) throws(TabStoreError)
    /// One set's shape, without what only `info` looks at (the journal, the tabs' ids).
    func rowsSummary(of set: SetRecord) throws(TabStoreError) -> SetRowsSummary
    /// All tabs of a set, in order, and its shape as `rowsSummary(of:)` gives it, from one
    /// snapshot: what a read of the whole set checks before it answers.
    func tabsWithRowsSummary(of set: SetRecord) throws(TabStoreError) -> (tabs: [TabRecord], shape: SetRowsSummary)
    /// The names left at a revision outside `range` (by a set removed or renamed away), by
    /// name: what the rule check finds of names no set has.
    func nameRevisions(outside range: ClosedRange<Int>) throws(TabStoreError) -> [(name: String, revision: Int)]
}
