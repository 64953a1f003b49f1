/// Resolving `TabRef.typed`: what a person typed for a tab, read against the set as it
/// stands inside the write transaction, so no other process can change the answer
/// between the check and the edit.
extension TabRecords {
    func resolveTyped(_ text: String, asIndex: Bool, in set: SetRecord) throws(TabStoreError) -> TabRecord {
        guard isIntegerText(text) else {
            // Not an integer: a title, unless only an index was meant.
            guard !asIndex, let tab = try tab(titled: text, in: set) else { throw .tabNotFound(title: text, set: set.name) }
            return tab
        }
        if !asIndex, let titled = try tab(titled: text, in: set) {
            var indexed: TabRecord?
            if let index = Int(text) {
                let position = index < 0 ? index + (try tabCount(in: set)) : index
                if position >= 0 { indexed = try tab(at: position, in: set) }
            }
            // Both readings naming the same tab ("0" at index 0) is no ambiguity.
            if indexed?.id == titled.id { return titled }
            throw .ambiguousTab(text: text, indexedTitle: indexed?.title, titledIndex: titled.index, set: set.name)
        }
        guard let index = Int(text) else {
            throw .indexTextOutOfRange(index: text, count: try tabCount(in: set), set: set.name)
        }
        return try resolve(.index(index), in: set)
    }
}

/// An optional `-` and one or more ASCII digits, whether or not it fits `Int`.
package func isIntegerText(_ text: String) -> Bool {
    let digits = text.utf8.first == UInt8(ascii: "-") ? text.utf8.dropFirst() : text.utf8[...]
    return !digits.isEmpty && digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
}
