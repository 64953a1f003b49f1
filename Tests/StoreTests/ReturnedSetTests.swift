import Testing
import TabStoreSQLite
import TabStoreTestSupport
@testable import TabStoreKit

/// Every edit returns the set as it leaves it, computed in memory from the plan: from the
/// tabs it read, or from the copy the store kept at the set's revision. Whatever the path,
/// it must be the stored set. Two stores edit one database in random turns (so each one's
/// copy is sometimes current and sometimes stale); a third, which never writes, reads
/// what is stored after every step.
@Suite struct ReturnedSetTests {
    @Test(arguments: StoreBackend.allCases, [21, 22, 23] as [UInt64])
    func everyReturnedSetIsTheStoredOne(backend: StoreBackend, seed: UInt64) throws {
        let folder = TemporaryFolder()
        let database = try backend.makeDatabase(in: folder)
        let writers = [try database.open(), try database.open()]
        let reader = try database.open()
        var random = SplitMix64(seed: seed)
        var next = 0
        func title() -> String {
            next += 1
            return "t\(next)"
        }
        try writers[0].add(["a", "b", "c"], to: "s", creatingSet: true)
        for step in 0..<300 {
            // Mostly the first store, so its copy is usually current; now and then the
            // second, which leaves the first one's copy stale.
            let store = writers[random.below(4) == 0 ? 1 : 0]
            let count = try reader.tabSet(named: "s").tabs.count
            let returned: TabSet
            switch random.below(count < 3 ? 2 : 11) {
            case 0, 1:
                returned = try store.add((0...random.below(2)).map { _ in title() }, to: "s", at: random.below(count + 1)).set
            case 2:
                returned = try store.remove((0...random.below(2)).map { _ in .index(random.below(count)) }, from: "s").set
            case 3:
                returned = try store.move(.index(random.below(count)), to: random.below(count), in: "s").set
            case 4:
                let offsets = (0...random.below(2)).map { _ in random.below(count) }
                returned = try store.move(fromOffsets: offsets, toOffset: random.below(count + 1), in: "s").set
            case 5:
                returned = try store.rename(.index(random.below(count)), to: title(), in: "s").set
            case 6:
                returned = try store.setPayload(["n": String(random.below(3))], for: .index(random.below(count)), in: "s").set
            case 7:
                let edit = try? store.reopen(in: "s")
                returned = try edit?.set ?? store.tabSet(named: "s")
            case 8:
                // Keeps some titles (their ids and payloads stay), drops others, adds one.
                let kept = try reader.tabSet(named: "s").tabs.map(\.title).filter { _ in random.below(3) > 0 }
                returned = try store.replaceTabs(of: "s", with: kept + [title()]).set
            default:
                let before = try reader.tabSet(named: "s")
                let change = try store.select(.index(random.below(count)), in: "s")
                returned = change.set
                try expectSelection(change, from: before, journaledIn: reader, step: step)
            }
            let stored = try reader.tabSet(named: "s")
            #expect(returned == stored, "step \(step)")
            if returned != stored { return }
        }
        #expect(try reader.info().consistencyCheck == "ok")
    }

    /// A select's answer and its journal row name the tabs as stored before it (a store
    /// holding the set takes titles, ids and payloads from its copy, others read them).
    private func expectSelection(_ change: SelectionChange, from before: TabSet, journaledIn reader: TabStore, step: Int) throws {
        let selected = before.tabs.firstIndex { $0.isSelected }
        let old = try #require(selected)
        let new = change.selectedIndex
        #expect(change.previousIndex == old, "step \(step)")
        #expect(change.selectedTab == before.tabs[new].with(selected: true), "step \(step)")
        let history = try reader.history(of: "s", limit: 1)
        let newest = try #require(history.first)
        guard old != new else {
            #expect(change.updates.isEmpty && change.revision == before.revision, "step \(step)")
            return
        }
        let updates = [
            TabUpdate(index: old, tab: before.tabs[old].with(selected: false).with(payload: [:])),
            TabUpdate(index: new, tab: before.tabs[new].with(selected: true).with(payload: [:])),
        ]
        #expect(change.updates == updates, "step \(step)")
        #expect(newest.event == .selectionChanged(updates) && newest.revision == before.revision + 1, "step \(step)")
    }

    /// A copy a store keeps is only used at its own revision: a set removed and made again
    /// under the name by another store (a revision never seen for the name's earlier
    /// states) is read afresh.
    @Test(arguments: StoreBackend.allCases)
    func aCopyOfARemovedAndRemadeSetIsNotUsed(backend: StoreBackend) throws {
        let folder = TemporaryFolder()
        let database = try backend.makeDatabase(in: folder)
        let first = try database.open(), second = try database.open()
        try first.add(["a", "b"], to: "s", creatingSet: true)
        try second.removeSet("s")
        try second.add(["x", "y", "z"], to: "s", creatingSet: true)
        let change = try first.select(.index(2), in: "s")
        #expect(picture(change.set) == ["x", "y", "*z"])
        #expect(change.set == (try second.tabSet(named: "s")))
    }

    /// A store that selected a tab knows that tab's row, and a later select trusts its copy
    /// only while the set still selects that row: a selection moved by hand in the file,
    /// leaving the revision as it was, is read from the rows, and the select names the tab
    /// the file had selected.
    @Test func aSelectionMovedInTheFileWithoutARevisionIsReadFromTheRows() throws {
        let folder = TemporaryFolder()
        let path = folder.file()
        let store = try TabStore(path: path)
        try store.add(["a", "b", "c"], to: "s", creatingSet: true)
        try store.select(.index(1), in: "s")
        var handle: OpaquePointer?
        defer { sqlite3_close(handle) }
        try #require(sqlite3_open(path, &handle) == SQLITE_OK)
        let moved = "UPDATE tab_set SET selected_tab_id = (SELECT id FROM tab WHERE title = 'c') WHERE name = 's'"
        try #require(sqlite3_exec(handle, moved, nil, nil, nil) == SQLITE_OK)
        let change = try store.select(.index(0), in: "s")
        #expect(change.previousIndex == 2)
        #expect(change.updates.map(\.index) == [2, 0])
        #expect(change.updates.map(\.tab.title) == ["c", "a"])
        let newest = try #require(try store.history(of: "s", limit: 1).first)
        #expect(newest.event == .selectionChanged(change.updates))
    }

    /// An image edited at random holds exactly the tabs of a plain model of the same edits,
    /// with one tab selected (the last selected) while it has tabs.
    @Test(arguments: [31, 32, 33] as [UInt64])
    func anImageFollowsItsEditsAsAPlainListDoes(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var made = 0
        func newTabs(_ count: Int) -> [NewTab] {
            (0..<count).map { _ in
                made += 1
                return NewTab(title: "t\(made)")
            }
        }
        var image = PlannedSet(name: "s", tabs: [], revision: 0)
        var model: [Tab] = []
        func selectInModel(_ index: Int) {
            model = model.enumerated().map { $0.element.with(selected: $0.offset == index) }
        }
        let first = newTabs(3)
        image.insert(first, at: 0)
        model = first.map { Tab(id: $0.uuid, title: $0.title, isSelected: false) }
        image.select(0)
        selectInModel(0)
        for step in 0..<400 {
            let count = model.count
            switch random.below(count < 2 ? 1 : 6) {
            case 0:
                let new = newTabs(1 + random.below(2)), index = random.below(count + 1)
                image.insert(new, at: index)
                model.insert(contentsOf: new.map { Tab(id: $0.uuid, title: $0.title, isSelected: false) }, at: index)
            case 1:
                let index = random.below(count)
                image.remove([index])
                model.remove(at: index)
            case 2:
                let from = random.below(count), to = random.below(count)
                image.move(from: from, to: to)
                model.insert(model.remove(at: from), at: to)
            case 3:
                let index = random.below(count)
                image.rename(index, to: "r\(step)")
                model[index] = Tab(id: model[index].id, title: "r\(step)", isSelected: model[index].isSelected, payload: model[index].payload)
            case 4:
                let index = random.below(count)
                image.setPayload(index, ["k": "\(step)"])
                model[index] = model[index].with(payload: ["k": "\(step)"])
            default:
                let index = random.below(count), previous = model.firstIndex { $0.isSelected }
                image.select(index, previous: previous)
                selectInModel(index)
            }
            if model.firstIndex(where: \.isSelected) == nil, !model.isEmpty {
                image.select(0)
                selectInModel(0)
            }
            #expect(image.tabs == model, "step \(step)")
            #expect(image.tabs.count { $0.isSelected } == (model.isEmpty ? 0 : 1), "step \(step)")
        }
        #expect(image.isConsistent)
        #expect(image.tabSet == TabSet(name: "s", tabs: model, revision: 0))
    }
}

/// A set another program stored under a name tabstore refuses to write is reached by
/// every write as by a read, so that it can be selected, renamed away or removed; and a
/// preview predicts the same, whether or not a copy of the set is at hand. No new set
/// takes such a name.
@Suite struct RefusedNameTests {
    private let name = "x\u{202E}y"

    @Test func aSetUnderARefusedNameIsWrittenAsItIsRead() throws {
        let folder = TemporaryFolder()
        let path = folder.file()
        let store = try TabStore(path: path)
        try store.add(["a", "b"], to: "ok", creatingSet: true)
        let other = try Database(path: path, flags: SQLITE_OPEN_READWRITE)
        try other.executeScript("UPDATE tab_set SET name = 'x' || char(8238) || 'y' WHERE name = 'ok'")
        #expect(try store.select(.index(1), in: name).selectedIndex == 1)
        #expect(try store.tabSet(named: name).tabs.map(\.title) == ["a", "b"])
        try store.rename(.index(0), to: "c", in: name)
        let stored = try TabStore(path: path).tabSet(named: name)
        #expect(stored.tabs.map(\.title) == ["c", "b"] && stored.tabs.map(\.isSelected) == [false, true])
        try store.renameSet(name, to: "clean")
        #expect(try store.tabSets().map(\.name) == ["clean"])
        #expect(throws: TabStoreError(.invalidSetName(name: name, problem: .misleadingCharacter(scalar: 0x202E)))) {
            try store.add(["a"], to: name, creatingSet: true)
        }
        try store.removeSet("clean")
        #expect(try store.tabSets().isEmpty)
    }

    @Test func aPreviewOfASetUnderARefusedNameIsWhatTheStoreWrites() {
        let set = TabSet(name: name, tabs: [Tab(title: "a", isSelected: true), Tab(title: "b", isSelected: false)], revision: 3)
        #expect(TabBarPrediction.select(set.tabs[1].id).applied(to: set)?.tabs.map(\.isSelected) == [false, true])
        #expect(TabBarPrediction.move([set.tabs[0].id], before: nil).applied(to: set)?.tabs.map(\.title) == ["b", "a"])
        #expect(TabBarPrediction.close([set.tabs[0].id]).applied(to: set)?.tabs.map(\.title) == ["b"])
    }
}
