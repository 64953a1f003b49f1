import Dispatch

/// Every call as `async`: the same names, parameters and errors, for callers on the main
/// actor or in tasks. Waiting for SQLite's write lock or the disk happens on the store's
/// own serial queues, never on a thread of the cooperative pool, so a call waiting for
/// another process's lock stalls no other task; reads run on their own queue and
/// connection, so they never wait behind a write.
///
/// In an `async` function Swift picks these forms, so a call there needs `await`; without
/// it the compiler says "expression is 'async' but is not marked with 'await'": add `await`,
/// the call does the same thing off the caller's thread. To run the synchronous form from
/// async code (it blocks its thread while another process holds the lock), call it in a
/// synchronous closure or function.
///
/// For example:
/// ```swift
/// @MainActor func tapped(_ index: Int) async {
///     let change = try? await store.select(.index(index), in: "store-detail")
/// }
/// ```
/// A call that has started runs to its end even when its task is cancelled: a write is
/// never left half done.
extension TabStore {
    // MARK: Reading

    /// The set as stored; as the synchronous call does.
    public func tabSet(named setName: String) async throws(TabStoreError) -> TabSet {
        try await onReadQueue { () throws(TabStoreError) in try self.tabSet(named: setName) }
    }

    /// Every set without its tabs, sorted by name; as the synchronous call does.
    public func tabSets() async throws(TabStoreError) -> [TabSetSummary] {
        try await onReadQueue { () throws(TabStoreError) in try self.tabSets() }
    }

    /// The selected tab and its index; as the synchronous call does.
    public func selectedTab(in setName: String) async throws(TabStoreError) -> TabUpdate {
        try await onReadQueue { () throws(TabStoreError) in try self.selectedTab(in: setName) }
    }

    /// Path, schema version, set count and the checks; as the synchronous call does.
    public func info() async throws(TabStoreError) -> StoreInfo {
        try await onReadQueue { () throws(TabStoreError) in try self.info() }
    }

    /// The newest changes of a set, newest first; as the synchronous call does.
    public func history(of setName: String, limit: Int = 25) async throws(TabStoreError) -> [TabChange] {
        try await onReadQueue { () throws(TabStoreError) in try self.history(of: setName, limit: limit) }
    }

    /// Titles of the removed tabs a set remembers; as the synchronous call does.
    public func closedTabs(in setName: String) async throws(TabStoreError) -> [String] {
        try await onReadQueue { () throws(TabStoreError) in try self.closedTabs(in: setName) }
    }

    /// The named sets as a document; as the synchronous call does.
    public func export(_ setNames: [String] = []) async throws(TabStoreError) -> TabStoreDocument {
        try await onReadQueue { () throws(TabStoreError) in try self.export(setNames) }
    }

    // MARK: Editing

    /// Adds tabs to a set; as the synchronous call does.
    @discardableResult
    public func add(
        _ titles: [String], to setName: String, at index: Int = -1, payload: [String: String] = [:],
        ifRevision: Int? = nil, creatingSet: Bool = false
    ) async throws(TabStoreError) -> TabSetEdit {
        try await onWriteQueue { () throws(TabStoreError) in
            try self.add(titles, to: setName, at: index, payload: payload, ifRevision: ifRevision, creatingSet: creatingSet)
        }
    }

    /// Adds tabs with a payload each; as the synchronous call does.
    @discardableResult
    public func add(
        _ tabs: [NewTab], to setName: String, at index: Int = -1, ifRevision: Int? = nil, creatingSet: Bool = false
    ) async throws(TabStoreError) -> TabSetEdit {
        try await onWriteQueue { () throws(TabStoreError) in
            try self.add(tabs, to: setName, at: index, ifRevision: ifRevision, creatingSet: creatingSet)
        }
    }

    /// The set, made with its default tabs when missing; as the synchronous call does.
    @discardableResult
    public func ensureSet(_ setName: String, defaultTabs: [NewTab]) async throws(TabStoreError) -> TabSetEdit {
        try await onWriteQueue { () throws(TabStoreError) in try self.ensureSet(setName, defaultTabs: defaultTabs) }
    }

    /// Creates an empty set; as the synchronous call does.
    @discardableResult
    public func createSet(_ setName: String) async throws(TabStoreError) -> TabSetEdit {
        try await onWriteQueue { () throws(TabStoreError) in try self.createSet(setName) }
    }

    /// Selects a tab; as the synchronous call does.
    @discardableResult
    public func select(_ ref: TabRef, in setName: String, ifRevision: Int? = nil) async throws(TabStoreError) -> SelectionChange {
        try await onWriteQueue { () throws(TabStoreError) in try self.select(ref, in: setName, ifRevision: ifRevision) }
    }

    /// Selects a tab without working out the set it leaves; as the synchronous call does.
    @discardableResult
    public func selectOnly(_ ref: TabRef, in setName: String, ifRevision: Int? = nil) async throws(TabStoreError) -> Selection {
        try await onWriteQueue { () throws(TabStoreError) in try self.selectOnly(ref, in: setName, ifRevision: ifRevision) }
    }

    /// Removes tabs; as the synchronous call does.
    @discardableResult
    public func remove(_ refs: [TabRef], from setName: String, ifRevision: Int? = nil) async throws(TabStoreError) -> TabSetEdit {
        try await onWriteQueue { () throws(TabStoreError) in try self.remove(refs, from: setName, ifRevision: ifRevision) }
    }

    /// Moves a tab; as the synchronous call does.
    @discardableResult
    public func move(
        _ ref: TabRef, to destination: Int, in setName: String, ifRevision: Int? = nil
    ) async throws(TabStoreError) -> TabSetEdit {
        try await onWriteQueue { () throws(TabStoreError) in try self.move(ref, to: destination, in: setName, ifRevision: ifRevision) }
    }

    /// Moves tabs as SwiftUI's `onMove` does; as the synchronous call does.
    @discardableResult
    public func move(
        fromOffsets offsets: some Sequence<Int>, toOffset destination: Int, in setName: String, ifRevision: Int? = nil
    ) async throws(TabStoreError) -> TabSetEdit {
        let offsets = Array(offsets)
        return try await onWriteQueue { () throws(TabStoreError) in
            try self.move(fromOffsets: offsets, toOffset: destination, in: setName, ifRevision: ifRevision)
        }
    }

    /// Replaces a tab's payload; as the synchronous call does.
    @discardableResult
    public func setPayload(
        _ payload: [String: String], for ref: TabRef, in setName: String, ifRevision: Int? = nil
    ) async throws(TabStoreError) -> TabSetEdit {
        try await onWriteQueue { () throws(TabStoreError) in try self.setPayload(payload, for: ref, in: setName, ifRevision: ifRevision) }
    }

    /// Replaces a tab's payload with a typed value; as the synchronous call does.
    @discardableResult
    public func setPayload<Payload: Encodable>(
        _ payload: Payload, for ref: TabRef, in setName: String, ifRevision: Int? = nil
    ) async throws(TabStoreError) -> TabSetEdit {
        let entries = try encodePayload(payload)
        return try await onWriteQueue { () throws(TabStoreError) in try self.setPayload(entries, for: ref, in: setName, ifRevision: ifRevision) }
    }

    /// Gives a tab a new title; as the synchronous call does.
    @discardableResult
    public func rename(
        _ ref: TabRef, to newTitle: String, in setName: String, ifRevision: Int? = nil
    ) async throws(TabStoreError) -> TabSetEdit {
        try await onWriteQueue { () throws(TabStoreError) in try self.rename(ref, to: newTitle, in: setName, ifRevision: ifRevision) }
    }

    /// Replaces a set's whole tab list; as the synchronous call does.
    @discardableResult
    public func replaceTabs(of setName: String, with titles: [String], ifRevision: Int? = nil) async throws(TabStoreError) -> TabSetEdit {
        try await onWriteQueue { () throws(TabStoreError) in try self.replaceTabs(of: setName, with: titles, ifRevision: ifRevision) }
    }

    /// Puts the most recently removed tab back; as the synchronous call does.
    @discardableResult
    public func reopen(in setName: String, ifRevision: Int? = nil) async throws(TabStoreError) -> TabSetEdit {
        try await onWriteQueue { () throws(TabStoreError) in try self.reopen(in: setName, ifRevision: ifRevision) }
    }

    /// Renames a whole set; as the synchronous call does.
    @discardableResult
    public func renameSet(_ setName: String, to newName: String, ifRevision: Int? = nil) async throws(TabStoreError) -> TabSetEdit {
        try await onWriteQueue { () throws(TabStoreError) in try self.renameSet(setName, to: newName, ifRevision: ifRevision) }
    }

    /// Deletes a set with all its tabs; as the synchronous call does.
    public func removeSet(_ setName: String, ifRevision: Int? = nil) async throws(TabStoreError) {
        try await onWriteQueue { () throws(TabStoreError) in try self.removeSet(setName, ifRevision: ifRevision) }
    }

    /// Writes every set of a document, all or nothing; as the synchronous call does.
    /// `progress` is called on the store's write queue.
    @discardableResult
    public func importDocument(
        _ document: TabStoreDocument, replace: Bool = false,
        progress: (@Sendable (_ tabsWritten: Int, _ totalTabs: Int) -> Void)? = nil
    ) async throws(TabStoreError) -> Int {
        try await onWriteQueue { () throws(TabStoreError) in try self.importDocument(document, replace: replace, progress: progress) }
    }

    /// Writes a consistent copy of the database; as the synchronous call does.
    /// `progress` is called on the store's write queue.
    public func backup(
        to path: String, replacing: Bool = false, progress: @escaping @Sendable (BackupProgress) -> Void = { _ in }
    ) async throws(TabStoreError) {
        try await onWriteQueue { () throws(TabStoreError) in try self.backup(to: path, replacing: replacing, progress: progress) }
    }

    // MARK: Sync

    /// Makes this file a device that syncs with `server`; as the synchronous call does.
    @discardableResult
    public func startSync(server: String, device: String? = nil) async throws(TabStoreError) -> TabSyncStatus {
        try await onWriteQueue { () throws(TabStoreError) in try self.startSync(server: server, device: device) }
    }

    /// Where this device's sync stands; as the synchronous call does.
    public func syncStatus() async throws(TabStoreError) -> TabSyncStatus {
        try await onReadQueue { () throws(TabStoreError) in try self.syncStatus() }
    }

    /// Pushes pending mutations and pulls the server's changes; as the synchronous call does.
    @discardableResult
    public func sync(with server: some TabSyncServer & Sendable) async throws(TabStoreError) -> TabSyncReport {
        try await onWriteQueue { () throws(TabStoreError) in try self.sync(with: server) }
    }

    /// The next push; as the synchronous call does. With `acknowledge(_:)`, `pullRequest()`
    /// and `apply(_:)`, what a transport of an app's own (an `async` HTTP client, say)
    /// calls in turn.
    public func pushRequest() async throws(TabStoreError) -> TabSyncPush? {
        try await onReadQueue { () throws(TabStoreError) in try self.pushRequest() }
    }

    /// Records what the server did with a push; as the synchronous call does.
    @discardableResult
    public func acknowledge(_ result: TabSyncPushResult) async throws(TabStoreError) -> [TabSyncRefusal] {
        try await onWriteQueue { () throws(TabStoreError) in try self.acknowledge(result) }
    }

    /// The next pull; as the synchronous call does.
    public func pullRequest() async throws(TabStoreError) -> TabSyncPull {
        try await onReadQueue { () throws(TabStoreError) in try self.pullRequest() }
    }

    /// Applies a pull's answer; as the synchronous call does.
    @discardableResult
    public func apply(_ result: TabSyncPullResult) async throws(TabStoreError) -> (done: Bool, refusals: [TabSyncRefusal]) {
        try await onWriteQueue { () throws(TabStoreError) in try self.apply(result) }
    }

    /// A server applies a device's push; as the synchronous call does.
    public func push(_ request: TabSyncPush) async throws(TabStoreError) -> TabSyncPushResult {
        try await onWriteQueue { () throws(TabStoreError) in try self.push(request) }
    }

    /// A server answers a device's pull; as the synchronous call does.
    public func pull(_ request: TabSyncPull) async throws(TabStoreError) -> TabSyncPullResult {
        try await onReadQueue { () throws(TabStoreError) in try self.pull(request) }
    }

    // MARK: Queues

    /// Runs `work` on the write queue and resumes the caller from there; while the store is
    /// suspended, it waits there for `resume()`.
    func onWriteQueue<T: Sendable>(_ work: @escaping @Sendable () throws(TabStoreError) -> T) async throws(TabStoreError) -> T {
        let suspension = self.suspension
        return try await run({ () throws(TabStoreError) -> T in try suspension.write(work) }, on: writeQueue)
    }

    /// Runs `work` on the read queue and resumes the caller from there.
    func onReadQueue<T: Sendable>(_ work: @escaping @Sendable () throws(TabStoreError) -> T) async throws(TabStoreError) -> T {
        try await run(work, on: readQueue)
    }

    private func run<T: Sendable>(
        _ work: @escaping @Sendable () throws(TabStoreError) -> T, on queue: DispatchQueue
    ) async throws(TabStoreError) -> T {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, TabStoreError>, Never>) in
            queue.async {
                continuation.resume(returning: Result { () throws(TabStoreError) -> T in try work() })
            }
        }
        return try result.get()
    }
}
