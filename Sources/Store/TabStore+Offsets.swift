/// SwiftUI's `onMove(perform:)` moves as `TabStore` edits.
extension TabStore {
    /// Moves the tabs at `offsets` so that they stand, in their order, before the tab that
    /// was at `destination` (`count` for the end): SwiftUI's `onMove(fromOffsets:toOffset:)`
    /// meaning. From SwiftUI, pass `Array(indexSet)`:
    /// ```swift
    /// .onMove { try? store.move(fromOffsets: Array($0), toOffset: $1, in: "main") }
    /// ```
    /// Each tab that changes place is one `.moved` change (journaled, observed, one
    /// revision each), all in one transaction; the selection stays on the same tab.
    ///
    /// - Returns: the set as it now stands and the last `.moved` event (`nil` when nothing moved).
    /// - Throws: `TabStoreError.Code.offsetOutOfRange` for an offset outside `0..<count`,
    ///   `.insertionOffsetOutOfRange` for a `destination` outside `0...count` (offsets never
    ///   count from the end), `.setNotFound`, `.revisionMismatch`.
    @discardableResult
    public func move(
        fromOffsets offsets: some Sequence<Int>, toOffset destination: Int, in setName: String, ifRevision: Int? = nil
    ) throws(TabStoreError) -> TabSetEdit {
        try perform(MoveOffsetsRule(offsets, toOffset: destination, in: setName, ifRevision: ifRevision))
    }
}
