import Testing
import TabStoreTestSupport
@testable import TabStoreKit

/// A statement skips binding a value its parameter holds already (bindings outlast a
/// reset). Whatever the order of binds, of every kind and through every entry point, a
/// run must see exactly the values bound last: random binds against a model of the
/// parameters, each run reading them back with their SQLite types.
@Suite struct StatementBindingTests {
    private enum Value: Equatable {
        case null
        case int(Int)
        case text(String)
    }

    @Test(arguments: [5, 6, 7] as [UInt64])
    func aRunSeesTheValuesBoundLast(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let ids = [TabID(), TabID()]
        // Equal lengths with other bytes, the empty text, one longer than a slot starts with.
        let texts = ["", "a", "b", "ab", "é", String(repeating: "x", count: 60), String(repeating: "y", count: 60)]
        let ints = [0, 1, -1, Int.max, Int.min]
        let store = try TabStore.inMemory()
        try store.withDatabase { database throws(TabStoreError) in
            let statement = try database.statement("SELECT typeof(?1), ?1, typeof(?2), ?2, typeof(?3), ?3")
            var model: [Value] = [.null, .null, .null]
            for step in 0..<600 {
                statement.prepareToBind()
                for _ in 0..<random.below(3) {
                    let parameter = random.below(3)
                    let index = Int32(parameter + 1)
                    switch random.below(7) {
                    case 0:
                        statement.bindNull(at: index)
                        model[parameter] = .null
                    case 1:
                        let number = ints[random.below(ints.count)]
                        statement.bind(number, at: index)
                        model[parameter] = .int(number)
                    case 2:
                        let text = texts[random.below(texts.count)]
                        statement.bind(text, at: index)
                        model[parameter] = .text(text)
                    case 3:
                        let id = ids[random.below(ids.count)]
                        statement.bind(id, at: index)
                        model[parameter] = .text(id.uuidString)
                    case 4:
                        let number = ints[random.below(ints.count)]
                        statement.bind(SQLValue.int(number), at: index)
                        model[parameter] = .int(number)
                    case 5:
                        let text = texts[random.below(texts.count)]
                        statement.bind(SQLValue.text(text), at: index)
                        model[parameter] = .text(text)
                    default:
                        statement.bind(SQLValue.null, at: index)
                        model[parameter] = .null
                    }
                }
                let seen = try database.firstRow(statement, bound: true) { row in
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
        }
    }
}
