import Dispatch

/// The async form of every call: ``read(_:)`` and ``write(_:)`` run the synchronous calls
/// made in their closure on the store's own serial queues and resume the caller from
/// there. Waiting for SQLite's write lock or the disk happens on those queues, never on a
/// thread of the cooperative pool, so a call waiting for another process's lock stalls no
/// other task; reads run on their own queue and connection, so they never wait behind a
/// write.
///
/// For example:
/// ```swift
/// let set = try await store.read { try $0.tabSet(named: "store-detail") }
/// let change = try await store.write { try $0.select(.index(2), in: "store-detail") }
/// ```
/// A call that has started runs to its end even when its task is cancelled: a write is
/// never left half done.
extension TabStore {
    /// Runs `body` on the store's read queue, with its own read-only connection, and
    /// returns what it returns: the async form of the calls that read (``tabSet(named:)``,
    /// ``tabSets()``, ``info()``, ``history(of:limit:)``, ``export(_:)``, a sync device's
    /// ``pushRequest()``, a server's ``pull(_:)``, ...).
    ///
    /// Reads never wait behind a write, of this process or another. Make no write in
    /// `body`: it would wait for the write lock on the read queue, and reads asked for
    /// after it would wait behind it; ``write(_:)`` is for writes.
    ///
    /// For example:
    /// ```swift
    /// let (set, history) = try await store.read { store throws(TabStoreError) in
    ///     (try store.tabSet(named: "store-detail"), try store.history(of: "store-detail", limit: 5))
    /// }
    /// ```
    /// Once `body` has started, it runs to its end even when the calling task is cancelled.
    /// - Throws: what `body` throws: a `TabStoreError` when `body` is declared
    ///   `throws(TabStoreError)` (`{ store throws(TabStoreError) in ... }`).
    public func read<T: Sendable, Failure: Error>(
        _ body: @escaping @Sendable (TabStore) throws(Failure) -> T
    ) async throws(Failure) -> T {
        try await onReadQueue { () throws(Failure) in try body(self) }
    }

    /// Runs `body` on the store's write queue and returns what it returns: the async form of
    /// the calls that write (``select(_:in:ifRevision:)``, ``add(_:to:at:payload:ifRevision:creatingSet:)``,
    /// ``importDocument(_:replace:progress:)``, ``backup(to:replacing:progress:)``, ``sync(with:)``, ...).
    ///
    /// Writes run one at a time, in the order they were asked for. Each call in `body` is
    /// its own write, as when made from synchronous code: a `body` that makes two and throws
    /// at the second has made the first. Progress handlers passed to calls in `body` are
    /// called on the write queue.
    ///
    /// While the store is suspended (``suspend()``), `body` waits for ``resume()`` before it
    /// starts. A suspension that comes while a call in `body` waits for another process's
    /// lock cuts that wait short: when `body` had changed nothing, it runs again from the
    /// start after ``resume()``; otherwise that call fails with ``TabStoreError/Code/busy``.
    ///
    /// For example:
    /// ```swift
    /// @MainActor func tapped(_ index: Int) async {
    ///     let change = try? await store.write { try $0.select(.index(index), in: "store-detail") }
    /// }
    /// ```
    /// Once `body` has started, it runs to its end even when the calling task is cancelled:
    /// a write is never left half done.
    /// - Throws: what `body` throws: a `TabStoreError` when `body` is declared
    ///   `throws(TabStoreError)`.
    @discardableResult
    public func write<T: Sendable, Failure: Error>(
        _ body: @escaping @Sendable (TabStore) throws(Failure) -> T
    ) async throws(Failure) -> T {
        try await onWriteQueue { () throws(Failure) in try body(self) }
    }

    // MARK: Queues

    /// Runs `work` on the write queue and resumes the caller from there; while the store is
    /// suspended, it waits there for `resume()`.
    func onWriteQueue<T: Sendable, Failure: Error>(
        _ work: @escaping @Sendable () throws(Failure) -> T
    ) async throws(Failure) -> T {
        let suspension = self.suspension
        return try await run({ () throws(Failure) -> T in try suspension.write(work) }, on: writeQueue)
    }

    /// Runs `work` on the read queue and resumes the caller from there.
    func onReadQueue<T: Sendable, Failure: Error>(
        _ work: @escaping @Sendable () throws(Failure) -> T
    ) async throws(Failure) -> T {
        try await run(work, on: readQueue)
    }

    private func run<T: Sendable, Failure: Error>(
        _ work: @escaping @Sendable () throws(Failure) -> T, on queue: DispatchQueue
    ) async throws(Failure) -> T {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, Failure>, Never>) in
            queue.async {
                continuation.resume(returning: Result { () throws(Failure) -> T in try work() })
            }
        }
        return try result.get()
    }
}
