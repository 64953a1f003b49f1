/// What a rule reads of one set, declared before anything is read: a backend reads it
/// all at once right after locking the set's row (PostgreSQL: one round trip), and
/// the rule then works on the answer without reading again.
package struct SnapshotRequest: Sendable {
    /// The set to lock and read.
    package let setName: String
    /// Tabs to look up, as the rule names them.
    package var refs: [TabRef] = []
    /// Titles whose tabs (if any) the rule needs: the duplicates an add or rename refuses.
    package var titles: [String] = []
    /// Every tab of the set, in order.
    package var allTabs = false
    /// How many tabs the set has (a backend may skip counting when this is false: then the
    /// count is read only to say why an index names no tab).
    package var tabCount = false
    /// The set's newest removed tab.
    package var lastClosed = false
    /// A second name the rule needs: whether a set has it, and its name's revision.
    package var otherName: String?
    /// Tab ids whose holders (the names of the sets whose tabs have them) the rule needs.
    package var holdersOf: [TabID] = []
    /// The tabs are read so that the rule can return the set as it leaves it, unless the
    /// set is still at the revision of the copy the store holds.
    package var tabsForResult: TabsForResult = .none

    package enum TabsForResult: Sendable {
        /// The set as it leaves the write is not wanted.
        case none
        /// Wanted: read the tabs unless the set is still at the revision of `held`, the
        /// store's copy (nil: none held).
        case unlessHeld(TabSet?)

        package var isWanted: Bool {
            if case .none = self { return false }
            return true
        }

        /// The store's copy of the set, when it holds one.
        package var held: TabSet? {
            if case let .unlessHeld(set) = self { return set }
            return nil
        }
    }

    package init(setName: String) {
        self.setName = setName
    }

    /// Adds `ref` to the tabs to look up.
    package mutating func lookUp(_ ref: TabRef) {
        refs.append(ref)
    }

    /// Whether the backend must read every tab: the rule needs them, or the caller wants
    /// the set and holds no copy at `revision`.
    package func readsAllTabs(atRevision revision: Int?) -> Bool {
        if allTabs { return true }
        guard case let .unlessHeld(held) = tabsForResult else { return false }
        return held == nil || held?.revision != revision
    }

    /// Whether the count must be read up front: asked for, or needed to find a tab (an
    /// index from the end) or to refuse one (an integer too large for `Int`).
    package var needsTabCount: Bool {
        tabCount || allTabs || refs.contains { ref in
            switch ref {
            case let .index(index): index < 0
            case let .userInput(text, _): TabRef.readsAsIndex(text) && (Int(text).map { $0 < 0 } ?? true)
            case .title, .id: false
            }
        }
    }

    /// The index of the one tab the request looks up, when that is all it asks besides the
    /// set (a select by index, also one typed as an index, `--index`): then the tab is
    /// read with the set. Nil otherwise.
    package var onlyIndex: Int? {
        guard refs.count == 1, let ref = refs.first, titles.isEmpty, !needsTabCount else { return nil }
        switch ref {
        case let .index(index): return index
        case let .userInput(text, asIndex: true) where TabRef.readsAsIndex(text): return Int(text)
        case .userInput, .title, .id: return nil
        }
    }

    /// The single-tab lookups the refs need, each at most once.
    package var lookups: [TabLookup] {
        var lookups: [TabLookup] = []
        var seen = Set<TabLookup>()
        func add(_ lookup: TabLookup) { if seen.insert(lookup).inserted { lookups.append(lookup) } }
        for ref in refs {
            switch ref {
            case let .index(index): add(.index(index))
            case let .title(title): add(.title(title))
            case let .id(id): add(.id(id))
            case let .userInput(text, asIndex):
                if TabRef.readsAsIndex(text), let index = Int(text) { add(.index(index)) }
                if !asIndex { add(.title(text)) }
            }
        }
        for title in titles { add(.title(title)) }
        return lookups
    }
}

/// One tab a snapshot looks up. A negative index counts from the end; a title is
/// compared byte for byte.
package enum TabLookup: Hashable, Sendable {
    case index(Int)
    case title(ExactName)
    case id(TabID)

    static func title(_ title: String) -> TabLookup { .title(ExactName(title)) }
}

/// A tab a snapshot's lookup found, with the lookup.
package struct FoundTab: Sendable {
    package let lookup: TabLookup
    package let tab: TabRecord

    package init(lookup: TabLookup, tab: TabRecord) {
        self.lookup = lookup
        self.tab = tab
    }
}

/// The second name a request asks about: its set (nil: none) and its name's revision.
package struct OtherName: Sendable {
    package let name: String
    package let record: SetRecord?
    package let nameRevision: Int

    package init(name: String, record: SetRecord?, nameRevision: Int) {
        self.name = name
        self.record = record
        self.nameRevision = nameRevision
    }
}

/// A set as one write read it after locking it: what its `SnapshotRequest` asked for.
package struct SetSnapshot: Sendable {
    package let name: String
    /// nil: no set has the name.
    package let record: SetRecord?
    /// What the rule check needs of the set (nil when there is no set): the rules refuse a
    /// set it finds damaged before any rule reads the rest (see `requireSound`).
    package let shape: SetRowsSummary?
    /// How many tabs the set has (0 when there is no set). A backend may leave it 0 unless
    /// the request `needsTabCount`, or a lookup by index found no tab.
    package let tabCount: Int
    /// The highest revision a set that left the name reached (0: none).
    package let nameRevision: Int
    /// Every tab in order, when asked for (or read for the result).
    package let tabs: [TabRecord]?
    /// The request's lookups that found a tab, with it.
    private let found: [FoundTab]
    /// The same, by lookup (the first answer to each), so that a rule naming many tabs
    /// finds each without a scan.
    private let foundByLookup: [TabLookup: TabRecord]
    package let lastClosed: ClosedTabRecord?
    /// The second name's set (nil: none) and name revision, when asked for.
    package let other: OtherName?
    /// For each asked id held by a tab, the name of that tab's set.
    package let holders: [TabID: String]

    package init(
        name: String, record: SetRecord?, shape: SetRowsSummary?, tabCount: Int, nameRevision: Int, tabs: [TabRecord]?,
        found: [FoundTab], lastClosed: ClosedTabRecord?, other: OtherName?, holders: [TabID: String]
    ) {
        self.name = name
        self.record = record
        self.shape = shape
        self.tabCount = tabCount
        self.nameRevision = nameRevision
        self.tabs = tabs
        self.found = found
        var byLookup: [TabLookup: TabRecord] = [:]
        for answer in found where byLookup[answer.lookup] == nil { byLookup[answer.lookup] = answer.tab }
        foundByLookup = byLookup
        self.lastClosed = lastClosed
        self.other = other
        self.holders = holders
    }

    /// Refuses a set whose rows break the tab rules, and any stored integer that arithmetic
    /// on it could overflow: the set's revision, base and positions (its shape), a removed
    /// tab's index, and the revisions names were left at, which new revisions go on from.
    /// Every snapshot passes here before a rule reads it, whichever backend took it.
    ///
    /// - Throws: `TabStoreError.Code.damagedSet`, naming the set and the first thing wrong.
    func requireSound() throws(TabStoreError) {
        if let shape {
            try shape.requireSound()
        } else if record != nil {
            throw TabStoreError(.internalFailure(database: "set \(quoted(name))", reason: "its snapshot came without its shape"))
        } else if let damage = RuleCheck.nameRevisionDamage(nameRevision) {
            throw TabStoreError(.damagedSet(set: name, damage: damage))
        }
        if let lastClosed, !RuleCheck.countRange.contains(lastClosed.position) {
            throw TabStoreError(.damagedSet(set: name, damage: .removedTabPositionOutOfRange(lastClosed.position)))
        }
        if let other, let damage = RuleCheck.nameRevisionDamage(other.nameRevision) {
            throw TabStoreError(.damagedSet(set: other.name, damage: damage))
        }
    }

    /// The tab of the first found that satisfies `condition`.
    private func foundTab(where condition: (FoundTab) -> Bool) -> TabRecord? {
        found.first(where: condition)?.tab
    }

    /// The set, which must exist and, when `revision` is given, be at that revision.
    func requireSet(ifRevision revision: Int? = nil) throws(TabStoreError) -> SetRecord {
        guard let record else { throw TabStoreError(.setNotFound(set: name)) }
        if let revision, revision != record.revision {
            throw TabStoreError(.revisionMismatch(set: name, expected: revision, actual: record.revision))
        }
        return record
    }

    /// The tab found for `lookup`, when the request asked for it.
    func tab(_ lookup: TabLookup) -> TabRecord? {
        foundByLookup[lookup]
    }

    /// The tab at `index` (negative: from the end), when the request looked it up.
    func tab(at index: Int) -> TabRecord? { tab(.index(index)) }

    func tab(titled title: String) -> TabRecord? { tab(.title(title)) }

    func tab(withID id: TabID) -> TabRecord? { tab(.id(id)) }

    /// The tab at `index`, among the tabs read or found, however the request named it.
    func tabStanding(at index: Int) -> TabRecord? {
        if let tabs { return tabs.indices.contains(index) ? tabs[index] : nil }
        return foundTab { $0.tab.index == index }
    }

    /// The tab `ref` names; the request must have listed `ref`. A typed integer that is
    /// also another tab's title is refused rather than guessed.
    func resolve(_ ref: TabRef) throws(TabStoreError) -> TabRecord {
        switch ref {
        case let .title(title):
            guard let tab = tab(titled: title) else { throw TabStoreError(.tabNotFound(title: title, set: name)) }
            return tab
        case let .index(index):
            guard let tab = tab(at: index) else { throw TabStoreError(.indexOutOfRange(index: index, count: tabCount, set: name)) }
            return tab
        case let .id(id):
            guard let tab = tab(withID: id) else { throw TabStoreError(.tabIDNotFound(id: id, set: name)) }
            return tab
        case let .userInput(text, asIndex):
            return try resolveTyped(text, asIndex: asIndex)
        }
    }

    /// What a person typed: an integer is an index, anything else an exact title.
    private func resolveTyped(_ text: String, asIndex: Bool) throws(TabStoreError) -> TabRecord {
        guard TabRef.readsAsIndex(text) else {
            // Not an integer: a title, unless only an index was meant.
            guard !asIndex, let tab = tab(titled: text) else { throw TabStoreError(.tabNotFound(title: text, set: name)) }
            return tab
        }
        let index = Int(text)
        if !asIndex, let titled = tab(titled: text) {
            let indexed = index.flatMap(tab(at:))
            // Both readings naming the same tab ("0" at index 0) is no ambiguity.
            if indexed?.id == titled.id { return titled }
            throw TabStoreError(.ambiguousTab(text: text, indexedTitle: indexed?.title, titledIndex: titled.index, set: name))
        }
        guard let index else { throw TabStoreError(.indexTextOutOfRange(index: text, count: tabCount, set: name)) }
        return try resolve(.index(index))
    }
}

extension [TabRecord] {
    /// The answers to `lookups` from a set's tabs, all in order.
    package func answering(_ lookups: [TabLookup]) -> [FoundTab] {
        guard !lookups.isEmpty else { return [] }
        var found: [FoundTab] = []
        var titles: [ExactName: TabRecord]?
        var ids: [TabID: TabRecord]?
        for lookup in lookups {
            switch lookup {
            case let .index(index):
                let position = index < 0 ? index + count : index
                if indices.contains(position) { found.append(FoundTab(lookup: lookup, tab: self[position])) }
            case let .title(title):
                if titles == nil {
                    var byTitle: [ExactName: TabRecord] = [:]
                    byTitle.reserveCapacity(count)
                    for tab in self { byTitle[ExactName(tab.title)] = tab }
                    titles = byTitle
                }
                if let tab = titles?[title] { found.append(FoundTab(lookup: lookup, tab: tab)) }
            case let .id(id):
                if ids == nil {
                    var byID: [TabID: TabRecord] = [:]
                    byID.reserveCapacity(count)
                    // The first tab with an id answers, as a scan would.
                    for tab in self where byID[tab.uuid] == nil { byID[tab.uuid] = tab }
                    ids = byID
                }
                if let tab = ids?[id] { found.append(FoundTab(lookup: lookup, tab: tab)) }
            }
        }
        return found
    }
}
