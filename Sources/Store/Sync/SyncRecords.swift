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

extension SnapshotReader {
    package func recordsMutations() throws(TabStoreError) -> Bool { false }
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
