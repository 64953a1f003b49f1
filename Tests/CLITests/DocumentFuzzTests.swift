import Testing
import TabStoreTestSupport
@testable import TabStoreCLI
import TabStoreKit

/// A deterministic fuzz of the import document reader. Every input either
/// becomes a document that imports and exports back unchanged, or is refused as
/// `.invalidDocument`; nothing crashes, hangs or fails any other way.
@Suite struct DocumentFuzzTests {
    static let valid = TabStoreDocument(sets: [
        .init(name: "store-detail", selectedIndex: 2, tabs: ["Home", "All menu", "Reviews"], ids: [
            TabID("0f8fad5b-d9cb-469f-a165-70867728950e")!, TabID("7c9e6679-7425-40de-944b-e07fc1f90ae7")!,
            TabID("16fd2706-8baf-433b-82eb-8c7fada847da")!,
        ], payloads: [["route": "/home"], [:], ["badge": "3"]]),
        .init(name: "숫자", selectedIndex: 0, tabs: ["1", "2", "iOS 앱 개발 알아가기", "😀"]),
        .init(name: "empty", selectedIndex: nil, tabs: []),
    ])

    /// Values a structural mutation puts in place of a member.
    static let replacements: [JSONValue] = [
        .null, .bool(true), .int(-1), .int(0), .int(3), .int(Int.max), .double(1.5), .string(""),
        .string("a\u{0}b"), .string("x\ny"), .string(String(repeating: "z", count: 300)), .string("Home"),
        .array([]), .array([.string("dup"), .string("dup")]), .array([.int(1)]), .object([]),
        .object([("name", .string("n")), ("selectedIndex", .null), ("tabs", .array([]))]),
    ]

    /// Replaces, drops or adds one member somewhere in the document tree.
    func mutateStructure(_ value: JSONValue, _ random: inout SplitMix64, depth: Int = 0) -> JSONValue {
        switch value {
        case let .object(members) where !members.isEmpty:
            var members = members
            let index = random.below(members.count)
            switch random.below(5) {
            case 0: members[index].value = Self.replacements[random.below(Self.replacements.count)]
            case 1: members.remove(at: index)
            case 2: members.append((key: ["x", "name", "tabs"][random.below(3)], value: .int(1)))
            default: members[index].value = mutateStructure(members[index].value, &random, depth: depth + 1)
            }
            return .object(members)
        case let .array(elements) where !elements.isEmpty:
            var elements = elements
            let index = random.below(elements.count)
            switch random.below(4) {
            case 0: elements[index] = Self.replacements[random.below(Self.replacements.count)]
            case 1: elements.remove(at: index)
            case 2: elements.append(elements[index])
            default: elements[index] = mutateStructure(elements[index], &random, depth: depth + 1)
            }
            return .array(elements)
        default:
            return Self.replacements[random.below(Self.replacements.count)]
        }
    }

    @Test func anyInputImportsCleanlyOrIsRefusedAsInvalid() throws {
        let tree = try JSONValue.parse(Array(Self.valid.json().utf8))
        let bytes = JSONFuzzTests()
        var random = SplitMix64(seed: 0x7AB5_70DE)
        var accepted = 0, refused = 0
        var problems: [String] = []
        for round in 0..<10_000 {
            let input = round % 2 == 0
                ? Array(mutateStructure(tree, &random).rendered().utf8)
                : bytes.mutate(Array(Self.valid.json().utf8), &random)
            do {
                let document = try TabStoreDocument(json: input)
                accepted += 1
                // A document the reader accepts must import, and export back as it was.
                let store = try TabStore.inMemory()
                try store.importDocument(document, replace: true)
                var exported = try store.export(document.sets.map(\.name))
                // A set given without ids got fresh ones; without payloads, none.
                for (index, entry) in document.sets.enumerated() {
                    if entry.ids == nil { exported.sets[index].ids = nil }
                    if entry.payloads == nil || entry.payloads!.allSatisfy(\.isEmpty) { exported.sets[index].payloads = entry.payloads }
                }
                if exported != document { problems.append("round \(round): exported \(exported) for \(document)") }
            } catch .invalidDocument {
                refused += 1
            } catch {
                problems.append("round \(round): \(error)")
            }
        }
        #expect(problems.isEmpty, "\(problems.count) problems, first: \(problems.prefix(3))")
        #expect(accepted > 300)
        #expect(refused > 3_000)
    }
}
