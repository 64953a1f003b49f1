/// What one write transaction will write, decided by the rules from what they read
/// (`SetSnapshot`) before anything is written. A backend only executes it: SQLite
/// statement by statement, PostgreSQL as one pipeline ending in COMMIT. A plan is a
/// value, so a backend that must run a transaction again (a lost connection, a
/// deadlock) reads afresh and gets a new plan: nothing to undo or invalidate.
package struct WritePlan: Sendable {
    package private(set) var writes: [PlannedWrite] = []
    /// Each set the plan touched, as it will stand (nil tabs: the name has no set any more),
    /// where the set was known before (read whole, or held by the store). Few: a list, its
    /// first apart (most writes touch one set, and a list of one was an allocation each).
    /// Places: 0 is the first (a plain value and a flag: an optional's copies and
    /// assignments went through generic code), 1... the others.
    private var firstResult = SetResult(name: ExactName(""), image: nil)
    private var hasFirstResult = false
    private var moreResults: [SetResult] = []
    /// Names whose set the plan changes without a known result: a copy of it is stale.
    /// Few, and usually none: a list (a set hashed the name on every look).
    package private(set) var unknownResults: [ExactName] = []
    /// A copy of a set the store held, until the plan takes it as that set's image.
    private var known: HeldSet?

    package init() {}

    /// Gives the plan the store's copy of the set it will edit.
    mutating func hold(_ held: consuming HeldSet) {
        known = held
    }

    package var isEmpty: Bool { writes.isEmpty }

    mutating func append(_ write: consuming PlannedWrite) {
        // Most plans are a few writes (a select's two): one allocation, not one per doubling.
        if writes.isEmpty { writes.reserveCapacity(4) }
        writes.append(write)
    }

    /// The store's copy of the set `name`, moved out of the plan (so that the image made
    /// from it holds its tabs alone, and changes them in place).
    mutating func takeKnown(_ name: String) -> HeldSet? {
        guard let held = known, sameBytes(held.set.name, name) else { return nil }
        known = nil
        return held
    }

    private func place(of name: ExactName) -> Int? {
        if hasFirstResult, firstResult.name == name { return 0 }
        return moreResults.firstIndex { $0.name == name }.map { $0 + 1 }
    }

    private mutating func appendResult(_ result: consuming SetResult) {
        if hasFirstResult {
            moreResults.append(result)
        } else {
            firstResult = result
            hasFirstResult = true
        }
    }

    /// The image at `place`, moved out of the plan (so that its tabs are not shared while they change).
    private mutating func takeImage(at place: Int) -> SetImage? {
        place == 0 ? firstResult.image.take() : moreResults[place - 1].image.take()
    }

    private mutating func setImage(_ image: consuming SetImage?, at place: Int) {
        if place == 0 { firstResult.image = image } else { moreResults[place - 1].image = image }
    }

    /// Calls `body` with each set the plan touched, as it leaves it.
    package func forEachResult(_ body: (SetResult) -> Void) {
        if hasFirstResult { body(firstResult) }
        moreResults.forEach(body)
    }

    /// Starts tracking `set` as it will stand, from `image` (nil: not known).
    mutating func start(_ name: String, from image: consuming SetImage?) {
        let key = ExactName(name)
        guard place(of: key) == nil, !unknownResults.contains(key) else { return }
        if let image { appendResult(SetResult(name: key, image: image)) } else { unknownResults.append(key) }
    }

    /// Applies `change` to the set's known image, if there is one.
    mutating func edit(_ name: String, _ change: (inout SetImage) -> Void) {
        guard let place = place(of: ExactName(name)), var image = takeImage(at: place) else { return }
        change(&image)
        setImage(image, at: place)
    }

    /// The set `name` now has no set (removed, or renamed away).
    mutating func forget(_ name: String) {
        let key = ExactName(name)
        unknownResults.removeAll { $0 == key }
        if let place = place(of: key) { setImage(nil, at: place) } else { appendResult(SetResult(name: key, image: nil)) }
    }

    /// Moves what is known of a set from `oldName` to `newName`.
    mutating func rename(_ oldName: String, to newName: String) {
        let old = ExactName(oldName), new = ExactName(newName)
        if let place = unknownResults.firstIndex(of: old) {
            unknownResults.remove(at: place)
            if !unknownResults.contains(new) { unknownResults.append(new) }
        }
        if let place = place(of: old), var image = takeImage(at: place) {
            image.name = newName
            appendResult(SetResult(name: new, image: image))
        } else {
            forget(oldName)
        }
    }

    /// The set `name` as the plan leaves it, when known.
    package func result(of name: String) -> TabSet? {
        guard let place = place(of: ExactName(name)) else { return nil }
        if place == 0 { return firstResult.image?.tabSet }
        return moreResults[place - 1].image?.tabSet
    }
}

/// A set a plan touched, as the plan leaves it (nil: no set has the name now).
package struct SetResult: Sendable {
    package let name: ExactName
    package var image: SetImage?
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

/// One typed write. Positions are the stored ones (index + the set's base).
package enum PlannedWrite: Sendable {
    case insertSet(name: String, revision: Int)
    case renameSet(SetRef, to: String)
    /// Deletes the set row; its tabs and removed tabs go with it.
    case deleteSet(SetRef)
    /// Remembers that `name` reached `revision` as its set left it (keeping a higher one).
    case retireName(String, revision: Int)
    case setBase(SetRef, Int)
    /// The set's revision and selected tab (nil: none).
    case updateSet(SetRef, revision: Int, selecting: TabKey?)
    /// Adds `delta` to the position of the set's tabs in `positions`.
    case shiftTabs(SetRef, positions: Range<Int>, by: Int)
    case setPosition(tab: Int, position: Int)
    /// Tab rows at `firstPosition` onward (free: the writes before made room).
    case insertTabs([NewTab], into: SetRef, firstPosition: Int)
    case deleteTabs([Int])
    case deleteAllTabs(SetRef)
    case renameTab(Int, to: String)
    /// The payload (an empty one stored as none).
    case setPayload(tab: Int, [String: String])
    /// Records removed tabs (in the order given) and forgets the oldest beyond `limit`.
    case rememberClosed([ClosingTab], in: SetRef, limit: Int)
    case deleteClosedTab(id: Int)
    /// Forgets removed tabs with these ids, in any set (tabs are back under them).
    case forgetClosedTabs(withIDs: [TabID])
    /// Forgets the set's removed tabs whose title is in the set again: they cannot come back.
    case forgetClosedTabsBackIn(SetRef)
    case journal(JournalEntry)
    /// Unlinks a removed set's changes from its row id, which a new set may get.
    case unlinkJournal(SetRef)
    /// Counts `tabs` as done for an import's progress without writing them (already as
    /// the document has them).
    case skipTabs(Int)
}

extension PlannedWrite {
    /// Whether this write is a journal row (every write that changes a set journals one).
    package var isJournalRow: Bool {
        if case .journal = self { return true }
        return false
    }
}

/// A set as a plan leaves it, computed in memory from the set as it was.
package struct SetImage: Sendable {
    package var name: String
    package var tabs: [Tab]
    package var revision: Int
    /// False once an edit did not fit the tabs (never expected: the rules plan from the
    /// same set): the plan then does not know the set, and it is read instead.
    package private(set) var isConsistent = true
    /// The selected tab's row, when known: kept by a select that names it, dropped by an
    /// edit that may move the selection or shift the tabs.
    package private(set) var selectedRow: SelectedRow? {
        get { selectedRowID > 0 ? SelectedRow(id: selectedRowID, index: selectedRowIndex) : nil }
        set { (selectedRowID, selectedRowIndex) = (newValue?.id ?? 0, newValue?.index ?? 0) }
    }
    // Two plain words rather than an optional pair: the image is copied and destroyed
    // several times a write, and an optional made those copies generic and costlier. Row
    // ids are positive; one that is not is not kept (the set is then read).
    private var selectedRowID = 0
    private var selectedRowIndex = 0

    package init(_ held: consuming HeldSet) {
        name = held.set.name
        tabs = held.set.tabs
        revision = held.set.revision
        selectedRow = held.selectedRow
    }

    package init(name: String, tabs: [Tab], revision: Int, selectedRow: SelectedRow? = nil) {
        self.name = name
        self.tabs = tabs
        self.revision = revision
        self.selectedRow = selectedRow
    }

    var tabSet: TabSet? { isConsistent ? TabSet(name: name, tabs: tabs, revision: revision) : nil }

    /// The set as the store will hold it.
    var held: HeldSet? { tabSet.map { HeldSet(set: $0, selectedRow: selectedRow) } }

    private var selectedIndex: Int? { tabs.firstIndex(where: \.isSelected) }

    /// Whether all of `indices` are indices of the tabs; marks the image inconsistent if not.
    private mutating func fits(_ indices: Int...) -> Bool {
        if indices.allSatisfy(tabs.indices.contains) { return true }
        isConsistent = false
        return false
    }

    /// Moves the selection to the tab at `index` (nil: no tab), whose row is `row` when the
    /// rule knows it. `previous`, when given, is where the selection is now: no search
    /// through a large set.
    mutating func select(_ index: Int?, previous: Int? = nil, row: Int? = nil) {
        selectedRow = nil
        if let index, !fits(index) { return }
        if let index, let row { selectedRow = SelectedRow(id: row, index: index) }
        let old = previous.flatMap { tabs.indices.contains($0) && tabs[$0].isSelected ? $0 : nil } ?? selectedIndex
        if let old, old != index { tabs[old].isSelected = false }
        if let index { tabs[index].isSelected = true }
    }

    mutating func insert(_ new: [NewTab], at index: Int) {
        selectedRow = nil
        guard index == tabs.count || fits(index) else { return }
        tabs.insert(contentsOf: new.map { Tab(id: $0.uuid, title: $0.title, isSelected: false, payload: $0.payload) }, at: index)
    }

    /// Removes the tabs at `indices` (sorted, distinct).
    mutating func remove(_ indices: [Int]) {
        selectedRow = nil
        for index in indices.reversed() where fits(index) { tabs.remove(at: index) }
    }

    mutating func move(from: Int, to: Int) {
        selectedRow = nil
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
