/// The documents' tab rules: one selected tab per non-empty set, the selection
/// follows the tab, a reselect is an event but not a change.
extension TabStore {
    /// Adds tabs to a set. Into an empty set, the first added tab becomes selected.
    /// A missing set is `.setNotFound`, so a misspelled name makes no set, unless
    /// `creatingSet` is true (or the set was made with ``createSet(_:)-6jcu5``).
    ///
    /// For example:
    /// ```swift
    /// try store.add(["Home", "All menu", "Reviews"], to: "store-detail", creatingSet: true)
    /// try store.add(["Pinned"], to: "store-detail", at: 0, payload: ["icon": "pin"])
    /// ```
    /// - Parameter titles: the new tabs' titles, in order; none repeated, none already in the set.
    /// - Parameter setName: the set to add to.
    /// - Parameter index: where the first new tab goes, `0...count`; negative counts from
    ///   the end, so `-1` appends (the default).
    /// - Parameter payload: each new tab's payload (see ``payloadLimit``).
    /// - Parameter creatingSet: make the set when it is missing, instead of `.setNotFound`.
    /// - Parameter ifRevision: when given, the call fails with `.revisionMismatch` unless
    ///   the set is at that revision (a missing set is at 0): optimistic concurrency.
    /// - Throws: `TabStoreError.setNotFound`, `.invalidTitle`, `.invalidSetName`, `.duplicateTitle`, `.repeatedTitle`,
    ///   `.insertionIndexOutOfRange`, `.payloadTooLarge`, `.emptyPayloadKey`, `.payloadContainsNUL`, `.revisionMismatch`,
    ///   `.missingSetRevision`, or a database error.
    @discardableResult
    public func add(
        _ titles: [String], to setName: String, at index: Int = -1, payload: [String: String] = [:],
        ifRevision: Int? = nil, creatingSet: Bool = false
    ) throws(TabStoreError) -> TabSetEdit {
        try validPayload(payload)
        return try writing { database throws(TabStoreError) in
            for title in titles { try validTitle(title) }
            if !creatingSet, try database.setRecord(named: setName) == nil { throw .setNotFound(set: setName) }
            var (set, isNew) = try database.setOrNew(named: setName, ifRevision: ifRevision)
            try database.requireDistinct(titles, in: set)
            let count = try database.tabCount(in: set)
            guard let position = insertionPosition(index, count: count) else {
                throw .insertionIndexOutOfRange(index: index, count: count, set: setName)
            }
            if titles.isEmpty && !isNew { return try database.edit(of: setName, event: nil) }
            let ids = try database.insertTabs(titles.map { NewTab(title: $0, payload: payload) }, at: position, in: &set, count: count)
            let selected = set.selected?.key ?? ids.first
            let event = TabEvent.added(titles: titles, index: position)
            try database.commitChange(to: set, selecting: selected, event: event)
            return try database.edit(of: setName, event: event)
        }
    }

    /// Makes an empty set. Creating a set that exists is `.setAlreadyExists`.
    ///
    /// - Throws: `TabStoreError.setAlreadyExists`, `.invalidSetName`, or a database error.
    @discardableResult
    public func createSet(_ setName: String) throws(TabStoreError) -> TabSetEdit {
        try writing { database throws(TabStoreError) in
            if try database.setRecord(named: setName) != nil { throw .setAlreadyExists(set: setName) }
            let set = try database.createSet(named: setName)
            let event = TabEvent.added(titles: [], index: 0)
            try database.commitChange(to: set, selecting: nil, event: event)
            return try database.edit(of: setName, event: event)
        }
    }

    /// Selects a tab. Selecting the tab that is already selected writes nothing and
    /// returns a reselection (`updates` empty): still an event for the caller.
    ///
    /// - Returns: the documents' update pairs: the old tab, now deselected, then the new
    ///   one; and the set as it now stands.
    /// - Throws: `TabStoreError.setNotFound`, `.emptySet`, `.tabNotFound`, `.indexOutOfRange`,
    ///   `.revisionMismatch`.
    @discardableResult
    public func select(_ ref: TabRef, in setName: String, ifRevision: Int? = nil) throws(TabStoreError) -> SelectionChange {
        let change = try writing { database throws(TabStoreError) in
            let set = try database.requireSet(named: setName, ifRevision: ifRevision)
            guard let old = set.selected else { throw .emptySet(set: setName) }
            let new = try database.resolve(ref, in: set)
            let selectedTab = new.tab(selected: true)
            guard new.id != old.id else {
                return SelectionChange(
                    setName: setName, previousIndex: old.index, selectedIndex: new.index,
                    selectedTab: selectedTab, updates: [], revision: set.revision,
                    set: try database.tabSet(of: set, selectedTabID: old.id, revision: set.revision)
                )
            }
            let updates = [
                TabUpdate(index: old.index, tab: old.eventTab(selected: false)),
                TabUpdate(index: new.index, tab: new.eventTab(selected: true)),
            ]
            try database.commitChange(to: set, selecting: new.key, event: .selectionChanged(updates))
            return SelectionChange(
                setName: setName, previousIndex: old.index, selectedIndex: new.index,
                selectedTab: selectedTab, updates: updates, revision: set.revision + 1,
                // A selection moves no tab: the record read for the rules still places them.
                set: try database.tabSet(of: set, selectedTabID: new.id, revision: set.revision + 1)
            )
        }
        if change.isReselection {
            // Nothing was written, so nothing is journaled: only this process's observers hear it.
            let reselected = change.selectedTab
            let event = TabEvent.reselected(TabUpdate(
                index: change.selectedIndex, tab: Tab(id: reselected.id, title: reselected.title, isSelected: true)
            ))
            hub.publish(local: [TabChange(setName: setName, revision: change.revision, event: event, timestamp: currentTimestamp())])
        }
        return change
    }

    /// Removes tabs; all references are resolved before anything is removed, and a tab
    /// named twice is removed once. When the selected tab goes, its right neighbour is
    /// selected, or the new last tab when it was last.
    ///
    /// - Throws: `TabStoreError.setNotFound`, `.tabNotFound`, `.indexOutOfRange`, `.revisionMismatch`.
    @discardableResult
    public func remove(_ refs: [TabRef], from setName: String, ifRevision: Int? = nil) throws(TabStoreError) -> TabSetEdit {
        try writing { database throws(TabStoreError) in
            var set = try database.requireSet(named: setName, ifRevision: ifRevision)
            var removed: [TabRecord] = []
            var removedIDs = Set<Int>()
            for ref in refs {
                let tab = try database.resolve(ref, in: set)
                if removedIDs.insert(tab.id).inserted { removed.append(tab) }
            }
            guard !removed.isEmpty else { return try database.edit(of: setName, event: nil) }
            removed.sort { $0.index < $1.index }
            let count = try database.tabCount(in: set)
            // The new selection is found before anything is written: every read comes first.
            var selectedKey = set.selected?.key
            if let selected = set.selected, removedIDs.contains(selected.id) {
                // The right neighbour now stands where the selected tab stood, less the
                // removed tabs before it; with none to its right, take the last tab.
                let remaining = count - removed.count
                let shifted = selected.index - removed.filter { $0.index < selected.index }.count
                selectedKey = remaining == 0 ? nil : try database.tab(
                    at: indexBeforeRemoval(of: min(shifted, remaining - 1), removed: removed.map(\.index)), in: set
                )?.key
            }
            for tab in removed {
                try database.deleteTab(id: tab.id)
            }
            try database.rememberClosed(removed, selectedID: set.selected?.id, inSet: set.id, limit: options.closedTabLimit)
            try database.closeGaps(at: removed.map(\.index), in: &set, count: count)
            let event = TabEvent.removed(removed.map { tab in
                TabUpdate(index: tab.index, tab: tab.eventTab(selected: tab.id == set.selected?.id))
            })
            try database.commitChange(to: set, selecting: selectedKey, event: event)
            return try database.edit(of: setName, event: event)
        }
    }

    /// Moves a tab so that it ends at index `destination` (negative counts from the end).
    /// The selection stays on the same tab.
    ///
    /// - Throws: `TabStoreError.setNotFound`, `.tabNotFound`, `.indexOutOfRange`, `.revisionMismatch`.
    @discardableResult
    public func move(
        _ ref: TabRef, to destination: Int, in setName: String, ifRevision: Int? = nil
    ) throws(TabStoreError) -> TabSetEdit {
        try writing { database throws(TabStoreError) in
            var set = try database.requireSet(named: setName, ifRevision: ifRevision)
            let tab = try database.resolve(ref, in: set)
            let count = try database.tabCount(in: set)
            let target = destination < 0 ? destination + count : destination
            guard (0..<count).contains(target) else {
                throw .indexOutOfRange(index: destination, count: count, set: setName)
            }
            guard target != tab.index else { return try database.edit(of: setName, event: nil) }
            try database.moveTab(tab, to: target, in: &set, count: count)
            let event = TabEvent.moved(title: tab.title, from: tab.index, to: target)
            try database.commitChange(to: set, selecting: set.selected?.key, event: event)
            return try database.edit(of: setName, event: event)
        }
    }

    /// Gives a tab a new title; renaming to the same title changes nothing.
    ///
    /// - Throws: `TabStoreError.invalidTitle`, `.duplicateTitle`, `.setNotFound`,
    ///   `.tabNotFound`, `.indexOutOfRange`, `.revisionMismatch`.
    @discardableResult
    public func rename(
        _ ref: TabRef, to newTitle: String, in setName: String, ifRevision: Int? = nil
    ) throws(TabStoreError) -> TabSetEdit {
        try writing { database throws(TabStoreError) in
            try validTitle(newTitle)
            let set = try database.requireSet(named: setName, ifRevision: ifRevision)
            let tab = try database.resolve(ref, in: set)
            guard !tab.title.utf8.elementsEqual(newTitle.utf8) else { return try database.edit(of: setName, event: nil) }
            try database.requireDistinct([newTitle], in: set)
            try database.renameTab(id: tab.id, to: newTitle)
            try database.forgetClosedTabsBackInSet(set.id)
            let event = TabEvent.renamed(index: tab.index, from: tab.title, to: newTitle)
            try database.commitChange(to: set, selecting: set.selected?.key, event: event)
            return try database.edit(of: setName, event: event)
        }
    }

    /// Replaces a set's whole tab list (document 002's `items` setter), creating the set
    /// when missing. The selected title stays selected when it is still there, else
    /// the first tab is. A title that was there before stays the same tab: its id and
    /// payload are kept.
    ///
    /// - Throws: `TabStoreError.invalidTitle`, `.invalidSetName`, `.duplicateTitle`, `.revisionMismatch`.
    @discardableResult
    public func replaceTabs(of setName: String, with titles: [String], ifRevision: Int? = nil) throws(TabStoreError) -> TabSetEdit {
        try writing { database throws(TabStoreError) in
            let set = try database.setOrNew(named: setName, ifRevision: ifRevision).set
            let keep = set.selected.flatMap { old in titles.firstIndex { $0.utf8.elementsEqual(old.title.utf8) } }
            try database.replaceTabs(of: set, with: titles, selecting: keep ?? 0)
            return try database.edit(of: setName, event: .replaced(tabCount: titles.count))
        }
    }

    /// Renames a whole set. Its revision goes above every revision either name has
    /// reached, and the old name keeps that revision as its last.
    ///
    /// - Returns: the set under its new name, and the `.setRenamed` event (`nil` for the same name).
    /// - Throws: `TabStoreError.setNotFound`, `.setAlreadyExists`, `.invalidSetName`, `.revisionMismatch`.
    @discardableResult
    public func renameSet(_ setName: String, to newName: String, ifRevision: Int? = nil) throws(TabStoreError) -> TabSetEdit {
        try writing { database throws(TabStoreError) in
            try validSetName(newName)
            let set = try database.requireSet(named: setName, ifRevision: ifRevision)
            guard !setName.utf8.elementsEqual(newName.utf8) else { return try database.edit(of: setName, event: nil) }
            if try database.setRecord(named: newName) != nil { throw .setAlreadyExists(set: newName) }
            let revision = max(set.revision, try database.nameRevision(of: newName)) + 1
            try database.renameSet(id: set.id, to: newName)
            try database.commitChange(
                to: set, selecting: set.selected?.key, event: .setRenamed(from: setName, to: newName), revision: revision
            )
            try database.retire(name: setName, at: revision)
            return try database.edit(of: newName, event: .setRenamed(from: setName, to: newName))
        }
    }

    /// Deletes a set with all its tabs. Its name keeps the revision of the removal, so
    /// a set made later under that name goes on above it.
    ///
    /// - Throws: `TabStoreError.setNotFound`, `.revisionMismatch`.
    public func removeSet(_ setName: String, ifRevision: Int? = nil) throws(TabStoreError) {
        try writing { database throws(TabStoreError) in
            let set = try database.requireSet(named: setName, ifRevision: ifRevision)
            try database.deleteSet(id: set.id)
            try database.forgetSetID(set.id)
            try database.record(.setRemoved, set: setName, setID: nil, revision: set.revision + 1)
            try database.retire(name: setName, at: set.revision + 1)
        }
    }

    /// Runs `body` in a write transaction on the connection, then tells this store's
    /// observers what it committed.
    func writing<T: Sendable>(_ body: (any TabRecords) throws(TabStoreError) -> T) throws(TabStoreError) -> T {
        let result = try backend.write(body)
        hub.publish()
        return result
    }
}

/// The index, before `removed` (sorted, distinct) are removed, of the tab that stands at
/// `index` after: the surviving tab with `index` survivors before it.
func indexBeforeRemoval(of index: Int, removed: [Int]) -> Int {
    var old = index
    for hole in removed where hole <= old { old += 1 }
    return old
}

/// The position an insertion index means: `0...count`, negative from the end (`-1` = append).
func insertionPosition(_ index: Int, count: Int) -> Int? {
    let position = index < 0 ? count + 1 + index : index
    return (0...count).contains(position) ? position : nil
}

extension TabRecords {
    /// The tab `ref` names in `set`.
    func resolve(_ ref: TabRef, in set: SetRecord) throws(TabStoreError) -> TabRecord {
        switch ref {
        case let .title(title):
            guard let tab = try tab(titled: title, in: set) else {
                throw .tabNotFound(title: title, set: set.name)
            }
            return tab
        case let .index(index):
            // Only a negative index needs the count; a valid one is a single lookup.
            let position = index < 0 ? index + (try tabCount(in: set)) : index
            if position >= 0, let tab = try tab(at: position, in: set) { return tab }
            throw .indexOutOfRange(index: index, count: try tabCount(in: set), set: set.name)
        case let .typed(text, asIndex):
            return try resolveTyped(text, asIndex: asIndex, in: set)
        case let .id(uuid):
            guard let tab = try tab(withID: uuid, in: set) else { throw .tabIDNotFound(id: uuid, set: set.name) }
            return tab
        }
    }

    /// Refuses titles that repeat each other or (unless told not to) a tab already in the set.
    func requireDistinct(_ titles: [String], in set: SetRecord, checkingStored: Bool = true) throws(TabStoreError) {
        var seen = Set<ExactName>(minimumCapacity: titles.count)
        for title in titles {
            guard seen.insert(ExactName(title)).inserted else { throw .repeatedTitle(title: title) }
            if checkingStored, try tab(titled: title, in: set) != nil {
                throw .duplicateTitle(title: title, set: set.name)
            }
        }
    }

    /// Replaces every tab of `set` with `titles`, selecting the one at `selectedIndex`. A
    /// title already in the set keeps its tab's id and payload.
    func replaceTabs(of set: SetRecord, with titles: [String], selecting selectedIndex: Int, tabWritten: (() -> Void)? = nil) throws(TabStoreError) {
        var kept: [ExactName: TabRecord] = [:]
        for tab in try tabs(in: set) { kept[ExactName(tab.title)] = tab }
        let newTabs = titles.map { title in
            kept[ExactName(title)].map { NewTab(title: title, uuid: $0.uuid, payload: $0.payload) } ?? NewTab(title: title)
        }
        try replaceTabs(of: set, with: newTabs, selecting: selectedIndex, tabWritten: tabWritten)
    }

    /// Replaces every tab of `set` with `newTabs` (ids as given), selecting the one at `selectedIndex`.
    func replaceTabs(of set: SetRecord, with newTabs: [NewTab], selecting selectedIndex: Int, tabWritten: (() -> Void)? = nil) throws(TabStoreError) {
        let titles = newTabs.map(\.title)
        for title in titles { try validTitle(title) }
        try deleteTabs(ofSet: set.id)
        // The set is empty now: only the new titles can repeat each other.
        var emptied = set
        try requireDistinct(titles, in: emptied, checkingStored: false)
        let ids = try insertTabs(newTabs, at: 0, in: &emptied, count: 0, tabWritten: tabWritten)
        let selected = ids.indices.contains(selectedIndex) ? ids[selectedIndex] : ids.first
        try commitChange(to: set, selecting: selected, event: .replaced(tabCount: titles.count))
    }
}
