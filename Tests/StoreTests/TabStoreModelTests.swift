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

    @Test(arguments: StoreBackend.allCases, [1, 2, 3] as [UInt64])
    func randomEditsMatchTheModel(backend: StoreBackend, seed: UInt64) throws {
        let store = try backend.makeStore()
        var model = Model()
        var random = SplitMix64(seed: seed)
        var next = 0
        for step in 0..<400 {
            let count = model.titles.count
            // What each edit returns as "the set as it now stands".
            let returned: TabSet
            switch random.below(count < 4 ? 2 : 5) {
            case 0, 1:
                let new = (0...random.below(3)).map { _ in next += 1; return "t\(next)" }
                let index = random.below(count + 1)
                returned = try store.add(new, to: "s", at: index, creatingSet: true).set
                model.add(new, at: index)
            case 2:
                let indices = Set((0...random.below(2)).map { _ in random.below(count) })
                returned = try store.remove(indices.map(TabRef.index), from: "s").set
                model.remove(indices)
            case 3:
                let from = random.below(count), to = random.below(count)
                returned = try store.move(.index(from), to: to, in: "s").set
                model.move(from: from, to: to)
            default:
                let index = random.below(count)
                returned = try store.select(.index(index), in: "s").set
                model.selected = model.titles[index]
            }
            let set = try store.tabSet(named: "s")
            // The returned set is the stored one: ids, titles, order, selection, revision.
            #expect(returned == set, "step \(step)")
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

/// Random sequences over two set names with batch removes, reopen, remove-set and
/// re-add, rename-set and `ifRevision`, against a model of the whole store. After
/// every step: each set equals its model (titles, order, selection, removed tabs),
/// each revision seen for a name always names the same state, an `ifRevision` call is
/// accepted exactly when it names the state the caller sees, reopen never gets stuck,
/// and reopening every tab of a batch removal, one by one, restores the set.
@Suite struct TabStoreLifecycleModelTests {
    struct Closed: Equatable {
        let title: String
        let index: Int
        let wasSelected: Bool
    }

    /// One set: the documents' rules plus its removed tabs, newest last.
    struct SetModel {
        var tabs = TabStoreModelTests.Model()
        var closed: [Closed] = []

        var picture: [String] { tabs.picture }

        mutating func forgetClosedTitlesBack() {
            closed.removeAll { tabs.titles.contains($0.title) }
        }

        mutating func remove(_ indices: Set<Int>, limit: Int) {
            // Removed together: the lowest index reopens first.
            for index in indices.sorted(by: >) {
                closed.append(Closed(title: tabs.titles[index], index: index, wasSelected: tabs.titles[index] == tabs.selected))
            }
            closed = Array(closed.suffix(limit))
            tabs.remove(indices)
        }

        /// `nil` when nothing can be reopened.
        mutating func reopen() -> Bool {
            guard let last = closed.popLast() else { return false }
            let index = min(last.index, tabs.titles.count)
            tabs.titles.insert(last.title, at: index)
            if last.wasSelected || tabs.selected == nil { tabs.selected = last.title }
            forgetClosedTitlesBack()
            return true
        }
    }

    /// A set name: its set when there is one, and its revision (where its last set left
    /// it when there is none).
    struct Name {
        var set: SetModel?
        var revision = 0
        /// Every revision seen for the name and the state it named (`nil`: no set).
        var seen: [Int: [String]?] = [0: nil]
    }

    static let closedTabLimit = 25

    @Test(arguments: StoreBackend.allCases, [11, 12, 13, 14] as [UInt64])
    func randomLifecyclesMatchTheModel(backend: StoreBackend, seed: UInt64) throws {
        let store = try backend.makeStore(options: .init(closedTabLimit: Self.closedTabLimit))
        var names: [String: Name] = ["s": Name(), "t": Name()]
        var random = SplitMix64(seed: seed)
        var next = 0
        // Each tab's id and payload, by title (a title names one tab at a time): an id is
        // fixed when its tab is added and never changes; a re-added title is a new tab.
        var knownIDs: [String: TabID] = [:]
        var payloads: [String: [String: String]] = [:]
        for step in 0..<500 {
            let name = random.below(2) == 0 ? "s" : "t"
            let other = name == "s" ? "t" : "s"
            var model = names[name]!
            let count = model.set?.tabs.titles.count ?? 0
            // A third of the calls say which revision they expect: the current one, or
            // another one seen for the name (stale, or from an earlier set of the name).
            var expected: Int?
            if random.below(3) == 0 {
                let seen = model.seen.keys.sorted()
                expected = random.below(2) == 0 ? model.revision : seen[random.below(seen.count)]
            }
            let stateBefore = model.set?.picture
            let accepted = expected.map { $0 == model.revision } ?? true
            if let expected, accepted {
                // What the revision named is what the caller sees now.
                #expect(model.seen[expected] == .some(stateBefore), "step \(step)")
            }
            var outcome: TabStoreError?
            var batch: (before: [String], size: Int)?
            var outcomeChecked = false
            var operation = random.below(8)
            if model.set == nil {
                operation = operation < 6 ? 0 : 3  // re-create the set, or try to reopen in it
            } else if count == 0, [1, 2, 4, 5].contains(operation) {
                operation = 0
            }
            switch (operation, model.set) {
            case (0, _):
                // Add fresh titles, or bring back the title of a removed tab.
                var new = (0...random.below(2)).map { _ in next += 1; return "t\(next)" }
                if let closed = model.set?.closed, !closed.isEmpty, random.below(2) == 0 {
                    new = [closed[random.below(closed.count)].title]
                }
                let index = random.below(count + 1)
                let payload = ["added": "step \(step)"]
                outcome = thrownError { () throws(TabStoreError) in
                    try store.add(new, to: name, at: index, payload: payload, ifRevision: expected, creatingSet: true)
                }
                if accepted {
                    for title in new {
                        knownIDs[title] = nil
                        payloads[title] = payload
                    }
                    var set = model.set ?? SetModel()
                    set.tabs.add(new, at: index)
                    set.forgetClosedTitlesBack()
                    model.set = set
                    model.revision += 1
                }
            case (_, nil):
                outcome = thrownError { () throws(TabStoreError) in try store.reopen(in: name, ifRevision: expected) }
                #expect(outcome == TabStoreError(.setNotFound(set: name)), "step \(step)")
                outcomeChecked = true
            case (1, .some(var set)), (2, .some(var set)):
                let indices = Set((0...random.below(3)).map { _ in random.below(count) })
                outcome = thrownError { () throws(TabStoreError) in try store.remove(indices.map(TabRef.index), from: name, ifRevision: expected) }
                if accepted {
                    batch = (set.picture, indices.count)
                    set.remove(indices, limit: Self.closedTabLimit)
                    model.set = set
                    model.revision += 1
                }
            case (3, .some(var set)):
                outcome = thrownError { () throws(TabStoreError) in try store.reopen(in: name, ifRevision: expected) }
                if accepted {
                    if set.reopen() {
                        model.set = set
                        model.revision += 1
                    } else {
                        #expect(outcome == TabStoreError(.noClosedTabs(set: name)), "step \(step)")
                        outcomeChecked = true
                    }
                }
            case (4, .some(var set)):
                let from = random.below(count), to = random.below(count)
                outcome = thrownError { () throws(TabStoreError) in try store.move(.index(from), to: to, in: name, ifRevision: expected) }
                if accepted && from != to {
                    set.tabs.move(from: from, to: to)
                    model.set = set
                    model.revision += 1
                }
            case (5, .some(var set)):
                let index = random.below(count)
                outcome = thrownError { () throws(TabStoreError) in try store.select(.index(index), in: name, ifRevision: expected) }
                if accepted && set.tabs.selected != set.tabs.titles[index] {
                    set.tabs.selected = set.tabs.titles[index]
                    model.set = set
                    model.revision += 1
                }
            case (6, .some):
                outcome = thrownError { () throws(TabStoreError) in try store.removeSet(name, ifRevision: expected) }
                if accepted {
                    model.set = nil
                    model.revision += 1
                }
            default:
                outcome = thrownError { () throws(TabStoreError) in try store.renameSet(name, to: other, ifRevision: expected) }
                if accepted {
                    if names[other]!.set != nil {
                        #expect(outcome == TabStoreError(.setAlreadyExists(set: other)), "step \(step)")
                        outcomeChecked = true
                    } else {
                        let revision = max(model.revision, names[other]!.revision) + 1
                        names[other]!.set = model.set
                        names[other]!.revision = revision
                        model.set = nil
                        model.revision = revision
                    }
                }
            }
            if outcomeChecked {
                // Checked above.
            } else if accepted {
                #expect(outcome == nil, "step \(step)")
            } else {
                #expect(outcome == TabStoreError(.revisionMismatch(set: name, expected: expected!, actual: model.revision))
                    || outcome == TabStoreError(.missingSetRevision(set: name, expected: expected!, actual: model.revision)), "step \(step)")
            }
            names[name] = model
            // Reopening a whole batch, one by one, puts the set back as it was.
            if let batch, random.below(2) == 0 {
                for _ in 0..<batch.size { try store.reopen(in: name) }
                #expect(try picture(store.tabSet(named: name)) == batch.before, "step \(step)")
                for _ in 0..<batch.size { _ = names[name]!.set!.reopen() }
                names[name]!.revision += batch.size
            }
            for (key, var name) in names {
                let stored = try store.tabSets().first { $0.name == key }
                #expect(stored?.revision == (name.set == nil ? nil : name.revision), "step \(step) \(key)")
                if let set = name.set {
                    #expect(try picture(store.tabSet(named: key)) == set.picture, "step \(step) \(key)")
                    #expect(try store.closedTabs(in: key) == set.closed.reversed().map(\.title), "step \(step) \(key)")
                }
                // A revision never names two states.
                if let earlier = name.seen[name.revision] {
                    #expect(earlier == name.set?.picture, "step \(step) \(key): revision \(name.revision) named \(String(describing: earlier))")
                }
                name.seen[name.revision] = .some(name.set?.picture)
                names[key] = name
                // History lists each revision once, newest first.
                let revisions = try store.history(of: key, limit: 10_000).map(\.revision)
                #expect(zip(revisions, revisions.dropFirst()).allSatisfy { $0 > $1 }, "step \(step) \(key): \(revisions)")
                if name.set != nil { #expect(revisions.first == name.revision, "step \(step) \(key)") }
            }
            // Ids are stable and unique, payloads kept, through every edit above.
            var idsInStore = Set<TabID>()
            for summary in try store.tabSets() {
                for tab in try store.tabSet(named: summary.name).tabs {
                    #expect(idsInStore.insert(tab.id).inserted, "step \(step): id \(tab.id) twice")
                    #expect(tab.payload == payloads[tab.title], "step \(step) \(tab.title)")
                    if let known = knownIDs[tab.title] {
                        #expect(tab.id == known, "step \(step) \(tab.title)")
                    } else {
                        knownIDs[tab.title] = tab.id
                    }
                }
            }
        }
    }
}
