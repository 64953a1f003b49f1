/// The tab rules' invariants, checked over what any backend reads of a set: `info` runs
/// this on every set of a file and of a server alike, and every write runs it on the set
/// its rule reads, before the rule plans (see `RuleContext.snapshot`). (A server also
/// enforces the rules at COMMIT; this finds damage done around tabstore, such as a
/// hand-edited file, or a server client that skipped its checks.)
package enum RuleCheck {
    /// The largest magnitude a stored revision, base or position may have. Far beyond any
    /// tabstore writes (a revision grows by one a change, a base by the tabs added before
    /// the first), and small enough that no sum or difference of such values and a count
    /// of tabs (an index, a base moved by the tabs inserted, a revision raised by the
    /// changes of one write) can overflow `Int`. It is also JSON's largest exact integer,
    /// so a revision that `--json` prints reads back the same in any language.
    package static let storedLimit = 1 << 53

    /// One line per broken invariant, sets in name order, then the names left at a revision
    /// out of range (`nameRevisions`, which a set that takes the name would go on from);
    /// none for a sound database.
    package static func problems(
        in shapes: [SetRowsSummary], tabTexts: TabTextCheck = TabTextCheck(), nameRevisions: [(name: String, revision: Int)] = []
    ) -> [String] {
        shapes.flatMap { shape in
            (damage(of: shape) + tabTexts.damage(of: shape.name)).map { "set \(quoted(shape.name)): \($0)" }
        }
            + nameRevisions.compactMap { name, revision in nameRevisionDamage(revision).map { "set \(quoted(name)): \($0)" } }
    }

    /// What the check finds in tabs' titles and data, set by set: each tab is checked here,
    /// in Swift, by the rules that wrote it (no SQL can say what `nameProblem` says).
    package struct TabTextCheck: Sendable {
        private var counts: [String: (invalidTitles: Int, unreadableData: Int)] = [:]

        package init() {}

        /// Checks one tab of the set `setName`: its title and its stored data.
        package mutating func check(setName: String, title: String, payload: String?) {
            let badTitle = nameProblem(title) != nil
            let badData = !isStoredPayload(payload)
            guard badTitle || badData else { return }
            var count = counts[setName, default: (0, 0)]
            if badTitle { count.invalidTitles += 1 }
            if badData { count.unreadableData += 1 }
            counts[setName] = count
        }

        /// What is wrong with the tabs of `setName`, in the order `info` lists it.
        func damage(of setName: String) -> [SetDamage] {
            guard let count = counts[setName] else { return [] }
            return (count.invalidTitles > 0 ? [.tabsWithInvalidTitle(count: count.invalidTitles)] : [])
                + (count.unreadableData > 0 ? [.tabsWithUnreadableData(count: count.unreadableData)] : [])
        }
    }

    /// The values a revision (a set's, or one a name was left at) and a removed tab's
    /// index may have.
    package static let countRange = 0...storedLimit

    /// The values a set's base and its tabs' positions may have.
    package static let positionRange = -storedLimit...storedLimit

    /// What is wrong with one set, in the order `info` lists it; empty for a sound set.
    /// Facts the shape did not read (nil) are not checked.
    package static func damage(of shape: SetRowsSummary) -> [SetDamage] {
        var damage: [SetDamage] = []
        if !countRange.contains(shape.revision) { damage.append(.revisionOutOfRange(shape.revision)) }
        if !positionRange.contains(shape.base) { damage.append(.baseOutOfRange(shape.base)) }
        let outside = [shape.lowestPosition, shape.highestPosition].compactMap { $0 }.first { !positionRange.contains($0) }
        if let outside { damage.append(.positionOutOfRange(outside)) }
        // Compared only within the range, and the last position checked: a count is a count
        // of rows, but this check takes none on trust.
        if outside == nil, positionRange.contains(shape.base), shape.tabCount > 0 {
            let last = shape.base.addingReportingOverflow(shape.tabCount - 1)
            if shape.lowestPosition != shape.base || last.overflow || shape.highestPosition != last.partialValue
                || shape.distinctPositions != shape.tabCount {
                damage.append(.positionsNotContiguous)
            }
        }
        switch (shape.tabCount > 0, shape.selection) {
        case (true, .none):
            damage.append(.noSelectedTab)
        case (false, .none), (true, .ownTab):
            break
        case (false, _):
            damage.append(.selectionWithoutTabs)
        case (true, .otherTab):
            damage.append(.selectionOfAnotherSet)
        }
        if let count = shape.tabsWithoutValidID, count > 0 {
            damage.append(.tabsWithoutValidID(count: count))
        }
        if let journaled = shape.journaledRevision, journaled != shape.revision {
            damage.append(.revisionNotJournaled(revision: shape.revision, journaled: journaled))
        }
        let closedOutside = [shape.lowestClosedPosition, shape.highestClosedPosition].compactMap { $0 }
            .first { !countRange.contains($0) }
        if let closedOutside { damage.append(.removedTabPositionOutOfRange(closedOutside)) }
        return damage
    }

    /// The revision a set left its name at, which a set that takes the name goes on from.
    package static func nameRevisionDamage(_ revision: Int) -> SetDamage? {
        countRange.contains(revision) ? nil : .nameRevisionOutOfRange(revision)
    }
}

/// How a set's rows break the tab rules, as `info` says it (after `set "name": `) and as
/// ``TabStoreError/Code/damagedSet`` carries it. New cases may be added.
public enum SetDamage: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Its tabs' positions are not `base`, `base + 1`, ... without a gap or a repeat.
    case positionsNotContiguous
    case noSelectedTab
    case selectionWithoutTabs
    /// Its selected tab id names a tab of another set, or no tab at all.
    case selectionOfAnotherSet
    /// Tabs whose id is not a lowercase UUID, or is the nil UUID.
    case tabsWithoutValidID(count: Int)
    /// Tabs whose title the rules refuse (empty, a control character, ...): it cannot be
    /// exported and imported again.
    case tabsWithInvalidTitle(count: Int)
    /// Tabs whose data is not as tabstore writes it: a read takes only what it can.
    case tabsWithUnreadableData(count: Int)
    /// Its revision is not the revision of its newest journal row.
    case revisionNotJournaled(revision: Int, journaled: Int)
    /// A value outside what tabstore stores (see `RuleCheck.storedLimit`): no arithmetic
    /// on it is safe.
    case revisionOutOfRange(Int)
    case baseOutOfRange(Int)
    case positionOutOfRange(Int)
    case removedTabPositionOutOfRange(Int)
    /// The revision its name was left at (by a set removed, or renamed away).
    case nameRevisionOutOfRange(Int)

    public var description: String {
        let limit = RuleCheck.storedLimit
        switch self {
        case .positionsNotContiguous:
            return "its tabs' positions are not contiguous from its base"
        case .noSelectedTab:
            return "it has tabs but no selected tab"
        case .selectionWithoutTabs:
            return "it has no tabs but a selected tab"
        case .selectionOfAnotherSet:
            return "its selected tab is not one of its tabs"
        case let .tabsWithoutValidID(count):
            let tabs = count == 1 ? "1 of its tabs has" : "\(count) of its tabs have"
            return "\(tabs) no valid id (a lowercase UUID, not the nil one)"
        case let .tabsWithInvalidTitle(count):
            let tabs = count == 1 ? "1 of its tabs has" : "\(count) of its tabs have"
            return "\(tabs) a title the rules refuse (empty, too long, invisible or with a control character)"
        case let .tabsWithUnreadableData(count):
            let tabs = count == 1 ? "1 of its tabs has" : "\(count) of its tabs have"
            return "\(tabs) data not as tabstore writes it (reads take only what they can of it)"
        case let .revisionNotJournaled(revision, journaled):
            return "its revision \(revision) is not its newest change's (\(journaled))"
        case let .revisionOutOfRange(revision):
            return "its revision \(revision) is outside the range tabstore stores (0...\(limit))"
        case let .baseOutOfRange(base):
            return "its base \(base) is outside the range tabstore stores (-\(limit)...\(limit))"
        case let .positionOutOfRange(position):
            return "a tab's position \(position) is outside the range tabstore stores (-\(limit)...\(limit))"
        case let .removedTabPositionOutOfRange(position):
            return "a removed tab's position \(position) is outside the range tabstore stores (0...\(limit))"
        case let .nameRevisionOutOfRange(revision):
            return "the revision its name was left at, \(revision), is outside the range tabstore stores (0...\(limit))"
        }
    }
}

/// What the rule check needs of one set, read in one statement by each backend.
package struct SetRowsSummary: Sendable, Equatable {
    package enum Selection: Sendable, Equatable {
        case none
        case ownTab
        /// A tab of another set, or none at all (a dangling id).
        case otherTab
    }

    package let name: String
    package let base: Int
    package let revision: Int
    package let tabCount: Int
    package let distinctPositions: Int
    package let lowestPosition: Int?
    package let highestPosition: Int?
    package let selection: Selection
    /// The revision of the set's newest journal row, when the journal still has one (and
    /// it was read: a write does not look through the journal).
    package let journaledRevision: Int?
    /// How many of its tabs have no id in the canonical form (`TabID.textPattern`), or
    /// the nil UUID, which no tab has: rows edited around tabstore. Nil when not read (a
    /// write reads a tab's id as the nil UUID, and gives it a new id where one is needed).
    package let tabsWithoutValidID: Int?
    /// The lowest and highest stored index of its removed tabs (nil: it remembers none).
    package let lowestClosedPosition: Int?
    package let highestClosedPosition: Int?

    package init(
        name: String, base: Int, revision: Int, tabCount: Int, distinctPositions: Int, lowestPosition: Int?,
        highestPosition: Int?, selection: Selection, journaledRevision: Int?, tabsWithoutValidID: Int?,
        lowestClosedPosition: Int?, highestClosedPosition: Int?
    ) {
        self.name = name
        self.base = base
        self.revision = revision
        self.tabCount = tabCount
        self.distinctPositions = distinctPositions
        self.lowestPosition = lowestPosition
        self.highestPosition = highestPosition
        self.selection = selection
        self.journaledRevision = journaledRevision
        self.tabsWithoutValidID = tabsWithoutValidID
        self.lowestClosedPosition = lowestClosedPosition
        self.highestClosedPosition = highestClosedPosition
    }

    /// What one row of the backends' shape query says: the selected tab's set id is
    /// nil for no selection, and `ownSelection` whether it is this set's.
    package static func selection(hasSelection: Bool, ownSelection: Bool) -> Selection {
        hasSelection ? (ownSelection ? .ownTab : .otherTab) : .none
    }

    /// The first thing wrong with the set, as a write or read of it refuses it.
    package func requireSound() throws(TabStoreError) {
        if let damage = RuleCheck.damage(of: self).first { throw TabStoreError(.damagedSet(set: name, damage: damage)) }
    }
}

extension StoreInfo {
    /// The info with the rule check's problems.
    func adding(_ problems: [String]) -> StoreInfo {
        StoreInfo(location: location, schemaVersion: schemaVersion, setCount: setCount, storageCheck: storageCheck, ruleProblems: ruleProblems + problems)
    }
}
