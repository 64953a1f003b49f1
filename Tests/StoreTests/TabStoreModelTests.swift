import Testing
import TabStoreTestSupport
@testable import TabStoreKit

/// Random edits applied to the store and to a plain array model of the documents'
/// rules must leave both in the same state after every step. This drives the
/// position bookkeeping (tabs shift on whichever side of an edit is shorter) through
/// every side and end.
@Suite struct TabStoreModelTests {
    /// The rules as the documents state them, on an array.
    struct Model {
        var titles: [String] = []
        var selected: String?

        var picture: [String] { titles.map { ($0 == selected ? "*" : "") + $0 } }

        mutating func add(_ new: [String], at index: Int) {
            titles.insert(contentsOf: new, at: index)
            if selected == nil { selected = new.first }
        }

        mutating func remove(_ indices: Set<Int>) {
            let old = titles
            titles = old.enumerated().filter { !indices.contains($0.offset) }.map(\.element)
            if let selected, let at = old.firstIndex(of: selected), indices.contains(at) {
                // Right neighbour that survived, else the last survivor.
                self.selected = old[(at + 1)...].enumerated().first { !indices.contains(at + 1 + $0.offset) }?.element
                    ?? titles.last
            }
        }

        mutating func move(from: Int, to: Int) {
            titles.insert(titles.remove(at: from), at: to)
        }
    }

    @Test(arguments: [1, 2, 3])
    func randomEditsMatchTheModel(seed: UInt64) throws {
        let store = try TabStore.inMemory()
        var model = Model()
        var random = SplitMix64(seed: seed)
        var next = 0
        for step in 0..<400 {
            let count = model.titles.count
            switch random.below(count < 4 ? 2 : 5) {
            case 0, 1:
                let new = (0...random.below(3)).map { _ in next += 1; return "t\(next)" }
                let index = random.below(count + 1)
                try store.add(new, to: "s", at: index)
                model.add(new, at: index)
            case 2:
                let indices = Set((0...random.below(2)).map { _ in random.below(count) })
                try store.remove(indices.map(TabRef.index), from: "s")
                model.remove(indices)
            case 3:
                let from = random.below(count), to = random.below(count)
                try store.move(.index(from), to: to, in: "s")
                model.move(from: from, to: to)
            default:
                let index = random.below(count)
                try store.select(.index(index), in: "s")
                model.selected = model.titles[index]
            }
            let set = try store.tabSet(named: "s")
            #expect(picture(set) == model.picture, "step \(step)")
            if picture(set) != model.picture { return }
            // Lookups by index and by title agree with the order.
            if let last = model.titles.last {
                #expect(try store.select(.index(-1), in: "s").selectedTab.title == last)
                #expect(try store.select(.title(last), in: "s").selectedIndex == model.titles.count - 1)
                model.selected = last
            }
        }
    }
}
