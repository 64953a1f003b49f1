/// What one write transaction will write, decided by the rules from what they read
/// (`SetSnapshot`) before anything is written. A backend only executes it: SQLite
/// statement by statement, PostgreSQL as one pipeline ending in COMMIT. A plan is a
/// value, so a backend that must run a transaction again (a lost connection, a
/// deadlock) reads afresh and gets a new plan: nothing to undo or invalidate.
package struct WritePlan: Sendable {
    package private(set) var writes: [PlannedWrite] = []
    /// Each set the plan touched, as it will stand (nil image: the name has no set any
    /// more), where the set was known before (read whole, or held by the store).
    package private(set) var results: [SetResult] = []
    /// Names whose set the plan changes without a known result: a copy of it is stale.
    package private(set) var unknownResults: [ExactName] = []
    /// A copy of a set the store held, until the plan takes it as that set's image.
    private var known: TabSet?
    /// The ids of each set's tabs before the plan replaced them all, where the set was known.
    package private(set) var replacedIDs: [ExactName: [TabID]] = [:]

    package init() {}

    /// Gives the plan the store's copy of the set it will edit.
    mutating func hold(_ held: TabSet) {
        known = held
    }

    package var isEmpty: Bool { writes.isEmpty }

    mutating func append(_ write: PlannedWrite) {
        writes.append(write)
    }

    /// The store's copy of the set `name`, moved out of the plan: the image made from it
    /// is then the only holder of its tabs, and a select on a large set changes them in
    /// place instead of copying them all.
    mutating func takeKnown(_ name: String) -> TabSet? {
        guard let set = known, sameBytes(set.name, name) else { return nil }
        known = nil
        return set
    }

    private func place(of name: ExactName) -> Int? {
        results.firstIndex { $0.name == name }
    }

    /// Starts tracking `set` as it will stand, from `image` (nil: not known).
    mutating func start(_ name: String, from image: PlannedSet?) {
        let key = ExactName(name)
        guard place(of: key) == nil, !unknownResults.contains(key) else { return }
        if let image { results.append(SetResult(name: key, image: image)) } else { unknownResults.append(key) }
    }

    /// Notes the ids of the set's tabs before they are all replaced, if the set is known.
    mutating func noteReplaced(_ name: String) {
        guard let place = place(of: ExactName(name)), let image = results[place].image else { return }
        replacedIDs[ExactName(name)] = image.tabs.map(\.id)
    }

    /// Applies `change` to the set's known image, if there is one.
    mutating func edit(_ name: String, _ change: (inout PlannedSet) -> Void) {
        guard let place = place(of: ExactName(name)), results[place].image != nil else { return }
        change(&results[place].image!)
    }

    /// The set `name` now has no set (removed, or renamed away).
    mutating func forget(_ name: String) {
        let key = ExactName(name)
        unknownResults.removeAll { $0 == key }
        if let place = place(of: key) { results[place].image = nil } else { results.append(SetResult(name: key, image: nil)) }
    }

    /// Moves what is known of a set from `oldName` to `newName`.
    mutating func rename(_ oldName: String, to newName: String) {
        let old = ExactName(oldName), new = ExactName(newName)
        if let place = unknownResults.firstIndex(of: old) {
            unknownResults.remove(at: place)
            if !unknownResults.contains(new) { unknownResults.append(new) }
        }
        if let place = place(of: old), var image = results[place].image {
            results[place].image = nil
            image.name = newName
            results.append(SetResult(name: new, image: image))
        } else {
            forget(oldName)
        }
    }

    /// The set `name` as the plan leaves it, when known.
    package func result(of name: String) -> TabSet? {
        guard let place = place(of: ExactName(name)) else { return nil }
        return results[place].image?.tabSet
    }
}

/// A set a plan touched, as the plan leaves it (nil: no set has the name now).
package struct SetResult: Sendable {
    package let name: ExactName
    package var image: PlannedSet?
}

/// A set that a plan writes to: one read (by row id) or one the plan creates (by name).
package enum SetRef: Hashable, Sendable {
    case id(Int)
    case new(name: String)
}

/// A tab a write names: by row id when it was read; by its id when the plan inserts
/// it (no row id yet); by its position once the writes before have run.
package enum TabKey: Hashable, Sendable {
    case row(Int)
    case uuid(TabID)
    case position(Int)
}

/// A removed tab to remember, at its index before the removal.
package struct ClosingTab: Sendable, Hashable {
    package let title: String
    package let index: Int
    package let wasSelected: Bool
    package let uuid: TabID
    package let payload: [String: String]
}

/// One journal row: a committed change of a set (`set` nil: of a set no longer there).
package struct JournalEntry: Sendable {
    package let event: TabEvent
    package let setName: String
    package let set: SetRef?
    package let revision: Int
    package let timestamp: Int
}

/// A set as a plan leaves it, computed in memory from the set as it was.
package struct PlannedSet: Sendable {
    package var name: String
    package var tabs: [Tab]
    package var revision: Int
    /// False once an edit did not fit the tabs (never expected: the rules plan from the
    /// same set): the plan then does not know the set, and it is read instead.
    package private(set) var isConsistent = true
    package init(_ set: TabSet) {
        name = set.name
        tabs = set.tabs
        revision = set.revision
    }

    package init(name: String, tabs: [Tab], revision: Int) {
        self.name = name
        self.tabs = tabs
        self.revision = revision
    }

    /// The set as the store will hold it; nil when an edit did not fit.
    var tabSet: TabSet? { isConsistent ? TabSet(name: name, tabs: tabs, revision: revision) : nil }

    private var selectedIndex: Int? { tabs.firstIndex(where: \.isSelected) }

    /// Whether all of `indices` are indices of the tabs; marks the image inconsistent if not.
    private mutating func fits(_ indices: Int...) -> Bool {
        if indices.allSatisfy(tabs.indices.contains) { return true }
        isConsistent = false
        return false
    }

    /// Moves the selection to the tab at `index` (nil: no tab). `previous`, when given, is
    /// where the selection is now: no search through a large set.
    mutating func select(_ index: Int?, previous: Int? = nil) {
        if let index, !fits(index) { return }
        let old = previous.flatMap { tabs.indices.contains($0) && tabs[$0].isSelected ? $0 : nil } ?? selectedIndex
        if let old, old != index { tabs[old].isSelected = false }
        if let index { tabs[index].isSelected = true }
    }

    mutating func insert(_ new: [NewTab], at index: Int) {
        guard index == tabs.count || fits(index) else { return }
        tabs.insert(contentsOf: new.map { Tab(id: $0.uuid, title: $0.title, isSelected: false, payload: $0.payload) }, at: index)
    }

    /// Removes the tabs at `indices` (sorted, distinct).
    mutating func remove(_ indices: [Int]) {
        for index in indices.reversed() where fits(index) { tabs.remove(at: index) }
    }

    mutating func move(from: Int, to: Int) {
        guard fits(from, to) else { return }
        tabs.insert(tabs.remove(at: from), at: to)
    }

    mutating func rename(_ index: Int, to title: String) {
        guard fits(index) else { return }
        let tab = tabs[index]
        tabs[index] = Tab(id: tab.id, title: title, isSelected: tab.isSelected, payload: tab.payload)
    }

    mutating func setPayload(_ index: Int, _ payload: [String: String]) {
        guard fits(index) else { return }
        tabs[index] = tabs[index].with(payload: payload)
    }
}

extension Tab {
    func with(selected: Bool) -> Tab {
        Tab(id: id, title: title, isSelected: selected, payload: payload)
    }

    func with(payload: [String: String]) -> Tab {
        Tab(id: id, title: title, isSelected: isSelected, payload: payload)
    }
}
