import Dispatch

// The boundary between the tab rules and a database. The rules (TabStore+Editing and
// the other public-API files, and TabRecords+Rules) are written once, over
// `TabRecords`; each backend answers these operations with its own statements: SQLite
// in Sources/Store/SQLite, PostgreSQL in the TabStorePostgres module. The operations are
// tabstore's own (find a set, insert tabs, shift positions, journal a change), not SQL.

/// A database that keeps tab sets: it runs transactions over its records and tells the
/// change hub about commits. `package`: apps get one through `TabStore`'s initializers.
package protocol TabStoreBackend: AnyObject, Sendable {
    /// The file's path, or a server as `postgresql://user@host:port/database` (no password).
    var location: String { get }

    /// Runs `body` in one write transaction; a thrown error rolls it back. A backend may
    /// run `body` again after a transient failure (a deadlock), so `body` must not have
    /// effects outside the records other than ones safe to repeat.
    func write<T: Sendable>(_ body: (any TabRecords) throws(TabStoreError) -> T) throws(TabStoreError) -> T

    /// Runs `body` on a connection that never waits behind this store's writes; several
    /// reads that must agree go in `records.readTransaction`.
    func read<T: Sendable>(_ body: (any TabRecords) throws(TabStoreError) -> T) throws(TabStoreError) -> T

    /// The changes after journal id `id`; none when `version` is given and nothing was
    /// committed since the read that returned it.
    func readJournal(after id: Int, unlessVersionIs version: Int?) throws(TabStoreError) -> JournalRead

    /// Starts calling `handler` on `queue` whenever another connection may have
    /// committed (a hint: the journal is the truth), until the returned wake-up is cancelled.
    func startWakeups(pollInterval: Duration, queue: DispatchQueue, handler: @escaping @Sendable () -> Void) -> any Wakeup

    /// Schema version, set count and a consistency check's findings ("" when sound).
    func info() throws(TabStoreError) -> StoreInfo

    /// Rows this store's writer has inserted, updated or deleted since it opened.
    var rowsWritten: Int { get }
}

/// Something that calls the change hub back until cancelled.
package protocol Wakeup: Sendable {
    /// Whether notifications (not only a timer) are in use. For tests.
    var isWatching: Bool { get }
    func cancel()
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
    package let id: Int
    package let name: String
    package let revision: Int
    /// The position of the tab at index 0 (see migration 0004); edits may move it.
    package var base: Int
    /// `nil` exactly when the set is empty.
    package let selected: TabRecord?

    package init(id: Int, name: String, revision: Int, base: Int, selected: TabRecord?) {
        self.id = id
        self.name = name
        self.revision = revision
        self.base = base
        self.selected = selected
    }
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

/// A tab about to be inserted: a new one (fresh id) or one coming back with its id.
package struct NewTab: Sendable {
    package let title: String
    package var uuid = TabID()
    package var payload: [String: String] = [:]
}

/// A tab a write names: by row id when it was read, by its id when it was only just
/// inserted (a backend that sends its writes in one batch knows no row id yet).
package enum TabKey: Hashable, Sendable {
    case row(Int)
    case uuid(TabID)
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

/// The operations the tab rules are built from, inside one transaction of a backend.
/// Reads come before writes in every rule; a backend that batches its writes must
/// still answer a read made after one (by sending them first).
package protocol TabRecords: AnyObject {
    /// Runs `body` so that its reads see one snapshot.
    func readTransaction<T>(_ body: () throws(TabStoreError) -> T) throws(TabStoreError) -> T

    // Sets. In a write transaction, `setRecord(named:)` locks the set's row first.
    func setRecord(named name: String) throws(TabStoreError) -> SetRecord?
    /// Inserts an empty set row at `revision`.
    func insertSet(named name: String, revision: Int) throws(TabStoreError) -> SetRecord
    /// The highest revision a set that left `name` (removed, or renamed away) reached; 0 for none.
    func nameRevision(of name: String) throws(TabStoreError) -> Int
    /// Remembers that `name` reached `revision` as its set left it (keeping a higher one).
    func retire(name: String, at revision: Int) throws(TabStoreError)
    func renameSet(id: Int, to newName: String) throws(TabStoreError)
    /// Deletes the set row with its tabs and removed tabs.
    func deleteSet(id: Int) throws(TabStoreError)
    /// Every set's name, sorted byte for byte.
    func setNames() throws(TabStoreError) -> [String]
    func setCount() throws(TabStoreError) -> Int
    /// Every set without its tabs, sorted byte for byte by name.
    func setSummaries() throws(TabStoreError) -> [TabSetSummary]
    /// The name of the set holding the tab with id `uuid`, or nil.
    func nameOfSet(holdingTab uuid: TabID) throws(TabStoreError) -> String?

    // Tabs.
    func tabCount(in set: SetRecord) throws(TabStoreError) -> Int
    func tab(at index: Int, in set: SetRecord) throws(TabStoreError) -> TabRecord?
    func tab(titled title: String, in set: SetRecord) throws(TabStoreError) -> TabRecord?
    func tab(withID uuid: TabID, in set: SetRecord) throws(TabStoreError) -> TabRecord?
    /// All tabs of a set, in order.
    func tabs(in set: SetRecord) throws(TabStoreError) -> [TabRecord]
    /// Inserts tab rows at `firstPosition` onward (free: the caller made room), calling
    /// `tabWritten` after each.
    func insertTabRows(
        _ tabs: [NewTab], firstPosition: Int, inSet setID: Int, tabWritten: (() -> Void)?
    ) throws(TabStoreError) -> [TabKey]
    /// Adds `delta` to the position of the tabs at `indices`.
    func shiftTabs(in set: SetRecord, indices: Range<Int>, by delta: Int) throws(TabStoreError)
    func setBase(ofSet setID: Int, to base: Int) throws(TabStoreError)
    func setPosition(ofTab id: Int, to position: Int) throws(TabStoreError)
    func deleteTab(id: Int) throws(TabStoreError)
    func deleteTabs(ofSet setID: Int) throws(TabStoreError)
    func renameTab(id: Int, to newTitle: String) throws(TabStoreError)
    /// Stores `payload` (an empty one as none) for the tab.
    func setPayload(_ payload: [String: String], ofTab id: Int) throws(TabStoreError)
    /// Sets the set's revision and selected tab (nil: none).
    func updateSet(id: Int, revision: Int, selecting tab: TabKey?) throws(TabStoreError)

    // Removed tabs, newest first.
    func lastClosedTab(ofSet setID: Int) throws(TabStoreError) -> ClosedTabRecord?
    func deleteClosedTab(id: Int) throws(TabStoreError)
    func closedTabTitles(ofSet setID: Int) throws(TabStoreError) -> [String]
    /// Forgets removed tabs that had the tab id `uuid` (a tab is back under it).
    func deleteClosedTabs(withID uuid: TabID) throws(TabStoreError)
    /// Records removed tabs (in the order given) and forgets the oldest beyond `limit`.
    func rememberClosed(_ tabs: [(tab: TabRecord, wasSelected: Bool)], inSet setID: Int, limit: Int) throws(TabStoreError)
    /// Forgets the removed tabs whose title is in the set again: they cannot come back.
    func forgetClosedTabsBackInSet(_ setID: Int) throws(TabStoreError)

    // The journal.
    /// Journals a change of the set `setID` (nil: of a set no longer there).
    func record(_ event: TabEvent, set setName: String, setID: Int?, revision: Int) throws(TabStoreError)
    /// Unlinks a removed set's changes from its id, which a new set may get.
    func forgetSetID(_ setID: Int) throws(TabStoreError)
    /// The newest `limit` changes of a set, newest first (see `TabStore.history`).
    func history(ofSet setName: String, limit: Int) throws(TabStoreError) -> [TabChange]
    /// The id of the newest change, 0 when there is none.
    func lastChangeID() throws(TabStoreError) -> Int

    /// The set as a write leaves it, read as the write's last call: a backend may send its
    /// commit together with this read.
    func finalTabSet(named name: String) throws(TabStoreError) -> TabSet
}

extension TabRecords {
    package func finalTabSet(named name: String) throws(TabStoreError) -> TabSet {
        try loadTabSet(named: name)
    }
}
