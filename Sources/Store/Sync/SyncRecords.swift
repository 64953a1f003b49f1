/// What a store keeps of sync (migrations/0010_sync.sql), read by the sync calls. A
/// device's side is a file's only: a server's store answers as a store that does not sync.
extension TabRecords {
    package func syncDevice() throws(TabStoreError) -> SyncDeviceRow? { nil }
    package func pendingMutations(limit: Int) throws(TabStoreError) -> [TabSyncPush.Numbered] { [] }
    package func pendingMutationCount() throws(TabStoreError) -> Int { 0 }
    package func refusedMutations(unreportedOnly: Bool) throws(TabStoreError) -> [TabSyncRefusal] { [] }
    package func settledThrough() throws(TabStoreError) -> Int { 0 }
    package func setsAwaitingTheServer() throws(TabStoreError) -> [String] { [] }
    package func newRefusals(_ refusals: [TabSyncRefusal], through number: Int) throws(TabStoreError) -> [TabSyncRefusal] { [] }
}

extension SnapshotReader {
    package func recordsMutations() throws(TabStoreError) -> Bool { false }
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
