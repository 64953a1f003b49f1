import TabStoreKit

/// An index into a set as typed: an integer of any size, negative counting from the end.
/// One too large for `Int` is out of range for every set: the store is asked with the
/// nearest `Int` (as far out of range), and its refusal names the digits as typed.
struct TypedIndex: Sendable, Equatable {
    let text: String

    init(_ text: String) {
        self.text = text
    }

    /// What the store is asked with.
    var value: Int { Int(text) ?? (text.hasPrefix("-") ? .min : .max) }

    /// Runs a store call that was given `value`, naming the index as typed if it is refused.
    func naming<T>(_ call: () throws(TabStoreError) -> T) throws(TabStoreError) -> T {
        do {
            return try call()
        } catch {
            // Only a refusal of the nearest `Int` is about the typed digits.
            guard Int(text) == nil, error.index == value, let count = error.tabCount, let set = error.setName else { throw error }
            switch error.code {
            case .indexOutOfRange: throw TabStoreError(.indexTextOutOfRange(index: text, count: count, set: set))
            case .insertionIndexOutOfRange: throw TabStoreError(.insertionIndexTextOutOfRange(index: text, count: count, set: set))
            default: throw error
            }
        }
    }
}
