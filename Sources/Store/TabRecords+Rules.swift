/// The parts of the rules that work on records: finding sets and tabs, keeping positions
/// contiguous with a movable base, and committing a change. Written once, over any backend.
extension SetRecord {
    /// Optimistic concurrency: refuses to write over a set someone else changed.
    func require(revision expected: Int?) throws(TabStoreError) {
        if let expected, expected != revision {
            throw .revisionMismatch(set: name, expected: expected, actual: revision)
        }
    }
}

extension TabRecords {
    /// The set, which must exist and, when `revision` is given, be at that revision.
    package func requireSet(named name: String, ifRevision revision: Int? = nil) throws(TabStoreError) -> SetRecord {
        guard let record = try setRecord(named: name) else { throw .setNotFound(set: name) }
        try record.require(revision: revision)
        return record
    }

    /// Creates an empty set at the revision its name last reached (0 for a new name),
    /// so that its first change gets a revision never seen for the name.
    func createSet(named name: String) throws(TabStoreError) -> SetRecord {
        try validSetName(name)
        return try insertSet(named: name, revision: try nameRevision(of: name))
    }

    /// The set, created when missing. A missing set is at the revision its name last
    /// reached, so `revision` guards a removed and re-created set too.
    func setOrNew(
        named name: String, ifRevision revision: Int? = nil
    ) throws(TabStoreError) -> (set: SetRecord, isNew: Bool) {
        if let existing = try setRecord(named: name) {
            try existing.require(revision: revision)
            return (existing, false)
        }
        let created = try createSet(named: name)
        if let revision, revision != created.revision {
            throw .missingSetRevision(set: name, expected: revision, actual: created.revision)
        }
        return (created, true)
    }

    /// Inserts `tabs` before index `index` of a set of `count` tabs, calling `tabWritten`
    /// after each. Returns the new tabs' keys, in order.
    @discardableResult
    func insertTabs(
        _ tabs: [NewTab], at index: Int, in set: inout SetRecord, count: Int, tabWritten: (() -> Void)? = nil
    ) throws(TabStoreError) -> [TabKey] {
        guard !tabs.isEmpty else { return [] }
        // Make room on the side with fewer tabs: appending or prepending moves none.
        if index < count - index {
            try shiftTabs(in: set, indices: 0..<index, by: -tabs.count)
            try setBase(of: &set, to: set.base - tabs.count)
        } else {
            try shiftTabs(in: set, indices: index..<count, by: tabs.count)
        }
        let keys = try insertTabRows(tabs, firstPosition: set.base + index, inSet: set.id, tabWritten: tabWritten)
        try forgetClosedTabsBackInSet(set.id)
        return keys
    }

    /// Closes the holes that removing the tabs at `removed` (sorted, distinct indices of
    /// a set that had `count` tabs) left, shifting the side with fewer tabs.
    func closeGaps(at removed: [Int], in set: inout SetRecord, count: Int) throws(TabStoreError) {
        guard let first = removed.first, let last = removed.last else { return }
        let rightSurvivors = count - first - removed.count
        let leftSurvivors = last - (removed.count - 1)
        if leftSurvivors < rightSurvivors {
            // Each run of tabs left of a hole moves right by the holes to its right.
            for (offset, hole) in removed.enumerated().reversed() {
                let start = offset == 0 ? 0 : removed[offset - 1] + 1
                try shiftTabs(in: set, indices: start..<hole, by: removed.count - offset)
            }
            try setBase(of: &set, to: set.base + removed.count)
        } else {
            // Each run of tabs right of a hole moves left by the holes to its left.
            for (offset, hole) in removed.enumerated() {
                let end = offset + 1 < removed.count ? removed[offset + 1] : count
                try shiftTabs(in: set, indices: hole + 1..<end, by: -(offset + 1))
            }
        }
    }

    /// Moves the tab at index `from` to index `to` in a set of `count` tabs: either the
    /// tabs between the two shift by one, or those outside them do, whichever are fewer.
    func moveTab(_ tab: TabRecord, to target: Int, in set: inout SetRecord, count: Int) throws(TabStoreError) {
        let from = tab.index
        let between = abs(target - from)
        let outside = min(from, target) + (count - 1 - max(from, target))
        let step = target > from ? 1 : -1
        if between <= outside {
            let range = target > from ? from + 1..<target + 1 : target..<from
            try shiftTabs(in: set, indices: range, by: -step)
        } else {
            try shiftTabs(in: set, indices: 0..<min(from, target), by: step)
            try shiftTabs(in: set, indices: max(from, target) + 1..<count, by: step)
            try setBase(of: &set, to: set.base + step)
        }
        try setPosition(ofTab: tab.id, to: set.base + target)
    }

    private func setBase(of set: inout SetRecord, to base: Int) throws(TabStoreError) {
        try setBase(ofSet: set.id, to: base)
        set.base = base
    }

    /// Records a change: the revision grows (to `revision` when given, else by one),
    /// the selection is set (nil: no tab) and the event goes into the journal.
    func commitChange(
        to set: SetRecord, selecting tab: TabKey?, event: TabEvent, revision: Int? = nil
    ) throws(TabStoreError) {
        let newRevision = revision ?? set.revision + 1
        try updateSet(id: set.id, revision: newRevision, selecting: tab)
        try record(event, set: set.name, setID: set.id, revision: newRevision)
    }

    /// Records removed tabs, highest index first, so the lowest reopens first: at its
    /// old index, every tab that stood before it is back.
    func rememberClosed(_ tabs: [TabRecord], selectedID: Int?, inSet setID: Int, limit: Int) throws(TabStoreError) {
        let newestLast = tabs.sorted { $0.index > $1.index }.map { ($0, $0.id == selectedID) }
        try rememberClosed(newestLast, inSet: setID, limit: max(limit, 0))
    }
}

extension TabRecord {
    var key: TabKey { .row(id) }
}
