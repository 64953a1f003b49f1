extension TabStore {
    /// The changes to one set from now on, in commit order: those this store makes
    /// (at once) and those other connections and processes make (within milliseconds where
    /// the file system reports writes, else within `Options.changePollInterval`). The
    /// stream follows the set when it is renamed. For the set's value instead of its
    /// changes, use ``observe(_:)``.
    ///
    /// For example:
    /// ```swift
    /// for try await change in store.changes(in: "store-detail") {
    ///     if case let .selectionChanged(updates) = change.event { reload(updates) }
    /// }
    /// ```
    /// Buffering is unbounded: a slow observer never holds up a writer; it catches up.
    /// Stop observing by ending the loop (or cancelling its task). The stream finishes
    /// when the store is released, and throws the ``TabStoreError`` of a journal read that
    /// failed (then no change is skipped silently: the observer knows it must reload).
    public func changes(in setName: String) -> TabStoreStream<TabChange> {
        hub.subscribe(setName: setName)
    }

    /// The changes to every set from now on, in commit order.
    public func changes() -> TabStoreStream<TabChange> {
        hub.subscribe(setName: nil)
    }

    /// Every change the journal holds, then those to come, to one set (or every set when
    /// nil), for a store's first observer: a watcher that started before the database had
    /// any tables misses none of its changes. A later observer gets the changes from now on,
    /// as ``changes()`` does.
    package func changesFromJournalStart(in setName: String?) -> TabStoreStream<TabChange> {
        hub.subscribe(setName: setName, after: 0)
    }

    /// The set's value now, then each new value committed to it, by this store or by any
    /// other connection or process; `nil` while no set has that name (before it is made,
    /// after it is removed: the sequence goes on, and a set made later under the name is
    /// seen). When the set is renamed, the sequence follows it to its new name.
    ///
    /// For example:
    /// ```swift
    /// for try await set in store.observe("store-detail") {
    ///     bar.show(set?.tabs ?? [], selected: set?.selectedIndex)
    /// }
    /// ```
    /// Values are coalesced: an observer slower than the writers gets the newest value
    /// next, never a backlog, and never the same value twice in a row. Other processes'
    /// commits are noticed through file-system notifications (inotify on Linux, a dispatch
    /// source on Apple platforms) within milliseconds, or every `Options.changePollInterval`
    /// where there are none. The sequence throws the `TabStoreError` of a read that failed,
    /// and finishes when the store is released. Stop observing by ending the loop.
    public func observe(_ setName: String) -> TabStoreStream<TabSet?> {
        hub.subscribeValue(setName: setName) { database, name throws(TabStoreError) -> TabSet? in
            guard let name else { return nil }
            return try Self.observedValue(of: name, in: database)
        }
    }

    /// The value ``observe(_:)`` would give first, read now: the set, or nil when no set
    /// has the name.
    func observedValue(of setName: String) throws(TabStoreError) -> TabSet? {
        try reading { database throws(TabStoreError) in try Self.observedValue(of: setName, in: database) }
    }

    /// The set (or nil) and the journal's newest id, read in one snapshot: what
    /// ``observe(_:from:)`` starts from, so that a model's first value is its only read.
    func firstObservation(of setName: String) throws(TabStoreError) -> (value: TabSet?, journalID: Int) {
        try reading { database throws(TabStoreError) in
            try database.readTransaction { () throws(TabStoreError) in
                (try Self.set(named: setName, in: database), try database.lastChangeID())
            }
        }
    }

    /// The values after `start` (from ``firstObservation(of:)``), as ``observe(_:)`` gives them.
    func observe(_ setName: String, from start: (value: TabSet?, journalID: Int)) -> TabStoreStream<TabSet?> {
        hub.subscribeValue(setName: setName, from: start) { database, name throws(TabStoreError) -> TabSet? in
            guard let name else { return nil }
            return try Self.observedValue(of: name, in: database)
        }
    }

    private static func observedValue(of setName: String, in database: any TabRecords) throws(TabStoreError) -> TabSet? {
        try database.readTransaction { () throws(TabStoreError) -> TabSet? in try set(named: setName, in: database) }
    }

    /// The set or nil, read inside the caller's transaction.
    private static func set(named setName: String, in database: any TabRecords) throws(TabStoreError) -> TabSet? {
        guard let record = try database.setRecord(named: setName) else { return nil }
        return try database.tabSet(of: record)
    }

    /// The list of sets now (as ``tabSets()-8wjxc`` gives it), then again after each commit that
    /// changed it, coalesced like ``observe(_:)``.
    public func observeSets() -> TabStoreStream<[TabSetSummary]> {
        hub.subscribeValue(setName: nil) { database, _ throws(TabStoreError) in try database.setSummaries().map(\.withinItsSet) }
    }

    /// The newest changes of a set, newest first, from the journal (which keeps the
    /// last 10,000 changes of the whole database). Reselections are not journaled.
    public func history(of setName: String, limit: Int = 25) throws(TabStoreError) -> [TabChange] {
        try reading { database throws(TabStoreError) in
            try database.history(ofSet: setName, limit: max(limit, 0))
        }
    }
}
