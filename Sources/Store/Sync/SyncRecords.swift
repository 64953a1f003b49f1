/// What a store keeps of sync (migrations/0010_sync.sql), read by the sync calls. A
/// device's side is a file's only: a server's store answers as a store that does not sync.
extension TabRecords {
    package func syncDevice() throws(TabStoreError) -> SyncDeviceRow? { nil }
    package func pendingMutations(limit: Int) throws(TabStoreError) -> [TabSyncPush.Numbered] { [] }
    package func pendingMutationCount() throws(TabStoreError) -> Int { 0 }
    package func unreadableMutations() throws(TabStoreError) -> [Int] { [] }
    package func refusedMutations(unreportedOnly: Bool) throws(TabStoreError) -> [TabSyncRefusal] { [] }
    package func settledThrough() throws(TabStoreError) -> Int { 0 }
    package func lastMutationNumber() throws(TabStoreError) -> Int { 0 }
    /// A server's store is never asked: it can never be a device.
    package func servesDevices() throws(TabStoreError) -> Bool { false }
    package func setsAwaitingTheServer() throws(TabStoreError) -> [String] { [] }
    package func newRefusals(_ refusals: [TabSyncRefusal], through number: Int) throws(TabStoreError) -> [TabSyncRefusal] { [] }
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
