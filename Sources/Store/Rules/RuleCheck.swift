/// The tab rules' invariants, checked over what any backend reads of each set: `info`
/// runs this on a file and on a server alike. (A server also enforces them at COMMIT;
/// this finds damage done around tabstore, such as a hand-edited file.)
package enum RuleCheck {
    /// One line per broken invariant, sets in name order; none for a sound database.
    package static func problems(in shapes: [SetShape]) -> [String] {
        var problems: [String] = []
        for shape in shapes {
            let set = "set \(quoted(shape.name))"
            if shape.tabCount > 0,
               shape.lowestPosition != shape.base
                || shape.highestPosition != shape.base + shape.tabCount - 1
                || shape.distinctPositions != shape.tabCount {
                problems.append("\(set): its tabs' positions are not contiguous from its base")
            }
            switch (shape.tabCount > 0, shape.selection) {
            case (true, .none):
                problems.append("\(set): it has tabs but no selected tab")
            case (false, .none), (true, .ownTab):
                break
            case (false, _):
                problems.append("\(set): it has no tabs but a selected tab")
            case (true, .otherTab):
                problems.append("\(set): its selected tab is not one of its tabs")
            }
            if shape.tabsWithoutValidID > 0 {
                let tabs = shape.tabsWithoutValidID == 1 ? "1 of its tabs has" : "\(shape.tabsWithoutValidID) of its tabs have"
                problems.append("\(set): \(tabs) no valid id (a lowercase UUID, not the nil one)")
            }
            if let journaled = shape.journaledRevision, journaled != shape.revision {
                problems.append("\(set): its revision \(shape.revision) is not its newest change's (\(journaled))")
            }
        }
        return problems
    }
}

/// What the rule check needs of one set, read in one statement by each backend.
package struct SetShape: Sendable, Equatable {
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
    /// The revision of the set's newest journal row, when the journal still has one.
    package let journaledRevision: Int?
    /// How many of its tabs have no id in the canonical form (`TabID.textPattern`), or
    /// the nil UUID, which no tab has: rows edited around tabstore.
    package let tabsWithoutValidID: Int

    package init(
        name: String, base: Int, revision: Int, tabCount: Int, distinctPositions: Int, lowestPosition: Int?,
        highestPosition: Int?, selection: Selection, journaledRevision: Int?, tabsWithoutValidID: Int
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
    }

    /// What one row of the backends' shape query says: the selected tab's set id is
    /// nil for no selection, and `ownSelection` whether it is this set's.
    package static func selection(hasSelection: Bool, ownSelection: Bool) -> Selection {
        hasSelection ? (ownSelection ? .ownTab : .otherTab) : .none
    }
}

extension StoreInfo {
    /// The info with the rule check's problems.
    func adding(_ problems: [String]) -> StoreInfo {
        StoreInfo(location: location, schemaVersion: schemaVersion, setCount: setCount, storageCheck: storageCheck, ruleProblems: ruleProblems + problems)
    }
}
