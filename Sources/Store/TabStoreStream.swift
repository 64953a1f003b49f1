/// What ``TabStore/observe(_:)``, ``TabStore/observeSets()`` and ``TabStore/changes(in:)``
/// hand out: an asynchronous sequence that throws only ``TabStoreError``, as every other
/// call of the store does, so a `catch` needs no cast.
///
/// For example:
/// ```swift
/// do {
///     for try await set in store.observe("store-detail") { print(set?.selectedIndex ?? 0) }
/// } catch {
///     print(error.isDatabaseProblem, error)   // error is a TabStoreError
/// }
/// ```
/// It ends (returns `nil`) when its store is released or its loop is left, and throws when
/// a read it needed failed: then the observer knows it may have missed something.
public struct TabStoreStream<Element: Sendable>: AsyncSequence, Sendable {
    public typealias Failure = TabStoreError

    /// What the hub yields: an element, or the error that ends the stream.
    enum Delivery: Sendable {
        case element(Element)
        case failure(TabStoreError)
    }

    private let deliveries: AsyncStream<Delivery>

    public struct AsyncIterator: AsyncIteratorProtocol {
        private var deliveries: AsyncStream<Delivery>.Iterator
        private var failed = false

        init(_ deliveries: AsyncStream<Delivery>.Iterator) {
            self.deliveries = deliveries
        }

        /// The next element, `nil` at the end; throws the error that ended the stream, once.
        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(TabStoreError) -> Element? {
            guard !failed else { return nil }
            switch await deliveries.next(isolation: actor) {
            case let .element(element)?:
                return element
            case let .failure(error)?:
                failed = true
                throw error
            case nil:
                return nil
            }
        }

        public mutating func next() async throws(TabStoreError) -> Element? {
            try await next(isolation: nil)
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(deliveries.makeAsyncIterator())
    }

    /// The hub's end of one stream.
    struct Continuation: Sendable {
        fileprivate let base: AsyncStream<Delivery>.Continuation

        func yield(_ element: Element) {
            base.yield(.element(element))
        }

        /// Ends the stream, with `error` when one is given.
        func finish(throwing error: TabStoreError? = nil) {
            if let error { base.yield(.failure(error)) }
            base.finish()
        }

        /// Called once when the stream ends: finished, or its consumer gone.
        func onTermination(_ handler: @escaping @Sendable () -> Void) {
            base.onTermination = { _ in handler() }
        }
    }

    /// A new stream and its continuation. `keepingOnlyNewest` keeps one unread element (a
    /// value stream: the newest wins); otherwise every element waits for its reader.
    static func make(keepingOnlyNewest: Bool) -> (stream: TabStoreStream, continuation: Continuation) {
        let (deliveries, base) = AsyncStream<Delivery>.makeStream(
            bufferingPolicy: keepingOnlyNewest ? .bufferingNewest(1) : .unbounded
        )
        return (TabStoreStream(deliveries: deliveries), Continuation(base: base))
    }
}
