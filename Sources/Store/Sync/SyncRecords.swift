// What a store keeps of sync (migrations/0010_sync.sql), read by the sync calls: a
// device's log, which only a backend that can be a device has (`SyncDeviceBackend`), and
// what a server answers a device, which every store has (`SyncServerRecords`).

/// A backend as a device that syncs (a file): where its log is read and its syncs are
/// written. `TabStoreBackend.syncDevice` is nil for a backend that cannot be one.
package protocol SyncDeviceBackend: AnyObject, Sendable {
    /// Why a sync cannot be recorded here (a file this process may only read), when it
    /// cannot: a device that could not record what the server settled is refused before it pushes.
    var writeRefusal: TabStoreError? { get }

    /// Runs `body` on the connection reads use; several reads that must agree go in
    /// `log.readTransaction`.
    func readLog<T: Sendable>(_ body: (_ log: any SyncDeviceRecords) throws(TabStoreError) -> T) throws(TabStoreError) -> T

    /// One write transaction in which `body` runs plans one after another (`run` plans one
    /// on the state the plans before it left, and executes it), reading the log in
    /// between: what a device's pull does, replaying its mutations on the server's sets.
    func writeSeries(
        _ body: (_ log: any SyncDeviceRecords, _ run: (_ planning: (any WriteReader) throws(TabStoreError) -> WritePlan) throws(TabStoreError) -> WritePlan) throws(TabStoreError) -> Void
    ) throws(TabStoreError)
}

/// A device's log of mutations and what it knows of its server.
package protocol SyncDeviceRecords: AnyObject {
    /// Runs `body` so that its reads see one snapshot.
    func readTransaction<T>(_ body: () throws(TabStoreError) -> T) throws(TabStoreError) -> T
    /// The device's row; nil when the file does not sync.
    func deviceRow() throws(TabStoreError) -> SyncDeviceRow?
    /// The oldest pending mutations, at most `limit`.
    func pendingMutations(limit: Int) throws(TabStoreError) -> [TabSyncPush.Numbered]
    func pendingMutationCount() throws(TabStoreError) -> Int
    /// The numbers of the pending mutations whose stored text is not as tabstore writes it.
    func unreadableMutations() throws(TabStoreError) -> [Int]
    /// Every refusal the device heard of (or those no sync's report has told yet), oldest first.
    func refusedMutations(unreportedOnly: Bool) throws(TabStoreError) -> [TabSyncRefusal]
    /// The device's last mutation the server settled, as far as the device knows.
    func settledThrough() throws(TabStoreError) -> Int
    /// The highest number the device has given a mutation, settled or not (0: none).
    func lastMutationNumber() throws(TabStoreError) -> Int
    /// Whether this file has served devices (settled a mutation of one): then it cannot be one.
    func servesDevices() throws(TabStoreError) -> Bool
    /// The sets of pending mutations, and of refused ones whose sets no pull has brought
    /// back since: what a pull asks for whole.
    func setsAwaitingTheServer() throws(TabStoreError) -> [String]
    /// Those of `refusals` through `number` whose mutations are still pending here, with them.
    func newRefusals(_ refusals: [TabSyncRefusal], through number: Int) throws(TabStoreError) -> [TabSyncRefusal]
}

/// What a store reads to answer a device's push or pull: every store can serve devices.
package protocol SyncServerRecords: AnyObject {
    /// The last settled mutation of `device` (0: none), and its refusals from `number` on.
    func settledMutations(of device: String, refusedFrom number: Int) throws(TabStoreError) -> (last: Int, refusals: [TabSyncRefusal])
    /// The journal position of the oldest change kept; nil when there is none.
    func oldestJournalPosition() throws(TabStoreError) -> Int?
}

/// What a write asks of a store's sync tables, beside the rules' reads (`SnapshotReader`):
/// a backend's reader in a write answers both (`WriteReader`).
package protocol SyncReader: AnyObject {
    /// Whether this write's edits are recorded for sync: a device's file (migrations/0010_sync.sql).
    func recordsMutations() throws(TabStoreError) -> Bool
    /// The last mutation of `device` this store settled, held until the write ends, so
    /// that two pushes of one device settle each mutation once.
    func lastSettledMutation(of device: String) throws(TabStoreError) -> SettledMutation
}

/// What a device writes of its sync state.
package enum SyncDeviceUpdate: Sendable {
    /// The file starts syncing as `device` with `server`.
    case start(device: String, server: String)
    /// The server has settled every mutation through `number`; `refusals` are those of them it refused.
    case settled(through: Int, refusals: [TabSyncRefusal])
    /// A pull ended at `cookie`, at `time` (ms since 1970): the refused mutations' sets are the server's again.
    case pulled(cookie: Int, time: Int)
    /// A sync's report told the refusals through `number`.
    case reported(through: Int)
}

extension RuleCheck {
    /// What the check says of a device's pending mutations that cannot be read (their
    /// numbers): each would fail every sync with `.damagedSyncLog`.
    package static func syncLogProblems(unreadable numbers: [Int]) -> [String] {
        // 0 stands for the device's row.
        if numbers.first == 0 {
            return ["the sync log's device row (its numbers or its id) is not as tabstore writes it"] + syncLogProblems(unreadable: Array(numbers.dropFirst()))
        }
        guard let first = numbers.first else { return [] }
        if numbers.count == 1 { return ["the sync log's mutation \(first) is not as tabstore writes it"] }
        return ["\(numbers.count) of the sync log's mutations (the first \(first)) are not as tabstore writes them"]
    }
}

/// The last mutation of a device a server settled: its number (0: none yet) and its stored
/// form as the device sent it (nil: none, or settled before servers kept it).
package struct SettledMutation: Sendable, Equatable {
    package let number: Int
    package let body: String?

    package init(number: Int, body: String?) {
        self.number = number
        self.body = body
    }

    package static let none = SettledMutation(number: 0, body: nil)
}

/// A device's row.
package struct SyncDeviceRow: Sendable {
    package let id: String
    package let server: String
    package let cookie: Int
    package let syncedAt: Int?

    package init(id: String, server: String, cookie: Int, syncedAt: Int?) {
        self.id = id
        self.server = server
        self.cookie = cookie
        self.syncedAt = syncedAt
    }
}
