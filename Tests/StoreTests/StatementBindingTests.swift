import Testing
import TabStoreTestSupport
@testable import TabStoreKit

/// A cached statement run again and again sees exactly the values of its latest call:
/// random lists of every kind of value, some shorter than the statement's parameters
/// (the rest are NULL), each run reading them back with their SQLite types.
@Suite struct StatementBindingTests {
    private enum Value: Equatable {
        case null
        case int(Int)
        case text(String)
    }

    @Test(arguments: [5, 6, 7] as [UInt64])
    func aRunSeesTheValuesOfItsOwnCall(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let ids = [TabID(), TabID()]
        // Equal lengths with other bytes, the empty text, text with a NUL, long text.
        let texts = ["", "a", "b", "ab", "é", "a\u{0}b", String(repeating: "x", count: 60), String(repeating: "y", count: 60)]
        let ints = [0, 1, -1, Int.max, Int.min]
        let store = try TabStore.inMemory()
        try store.withDatabase { database throws(TabStoreError) in
            for step in 0..<600 {
                var values: [SQLValue] = []
                var model: [Value] = [.null, .null, .null]
                for parameter in 0..<random.below(4) {
                    switch random.below(4) {
                    case 0:
                        values.append(.null)
                    case 1:
                        let number = ints[random.below(ints.count)]
                        values.append(.int(number))
                        model[parameter] = .int(number)
                    case 2:
                        let text = texts[random.below(texts.count)]
                        values.append(.text(text))
                        model[parameter] = .text(text)
                    default:
                        let id = ids[random.below(ids.count)]
                        values.append(.tabID(id))
                        model[parameter] = .text(id.uuidString)
                    }
                }
                let seen = try database.firstRow("SELECT typeof(?1), ?1, typeof(?2), ?2, typeof(?3), ?3", values) { row in
                    (0..<3).map { parameter -> Value in
                        let column = Int32(parameter * 2)
                        switch row.text(column) {
                        case "integer": return .int(row.int(column + 1))
                        case "text": return .text(row.text(column + 1))
                        default: return .null
                        }
                    }
                }
                #expect(seen == model, "step \(step)")
                if seen != model { return }
            }
            #expect(database.cachedStatementCount >= 1)
        }
    }
}
