#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension TabStore {
    /// The changes to one set from now on, in commit order: those this store makes
    /// (at once) and those other connections and processes make (within
    /// `Options.changePollInterval`). The stream follows the set when it is renamed.
    ///
    /// For example:
    /// ```swift
    /// for try await change in store.changes(in: "store-detail") {
    ///     if case let .selectionChanged(updates) = change.event { reload(updates) }
    /// }
    /// ```
    /// Buffering is unbounded: a slow observer never holds up a writer; it catches up.
    /// Stop observing by ending the loop (or cancelling its task). The stream finishes
    /// when the store is released, and throws the `TabStoreError` of a journal read that
    /// failed (then no change is skipped silently: the observer knows it must reload).
    public func changes(in setName: String) -> AsyncThrowingStream<TabChange, any Error> {
        hub.subscribe(setName: setName)
    }

    /// The changes to every set from now on, in commit order.
    public func changes() -> AsyncThrowingStream<TabChange, any Error> {
        hub.subscribe(setName: nil)
    }

    /// The newest changes of a set, newest first, from the journal (which keeps the
    /// last 10,000 changes of the whole database). Reselections are not journaled.
    public func history(of setName: String, limit: Int = 25) throws(TabStoreError) -> [TabChange] {
        try withDatabase { database throws(TabStoreError) in
            try database.history(ofSet: setName, limit: max(limit, 0))
        }
    }
}

/// Milliseconds since 1970-01-01 UTC, as the journal's `at` column counts them.
func currentTimestamp() -> Int {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int(now.tv_sec) * 1000 + Int(now.tv_nsec) / 1_000_000
}
