/// One of the tab rules: it reads what it needs, then decides what to write.
///
/// The reads go through a `SnapshotReader`, which offers nothing that writes: every read
/// comes before every write by construction. The rule writes only into its `WritePlan`;
/// the backend executes the plan after the rule returns, and may run the rule again on a
/// fresh snapshot when a transaction must be retried.
package protocol TabRule: Sendable {
    associatedtype Outcome: Sendable
    /// The one set the rule edits, when it edits one: the store hands the rule its copy of it.
    var editedSet: String? { get }
    func plan(reading reader: any SnapshotReader, into plan: inout WritePlan, context: RuleContext) throws(TabStoreError) -> Outcome
}

extension TabRule {
    package var editedSet: String? { nil }
}

/// A rule on one set: it declares what it reads of it, and plans from the snapshot.
package protocol SetRule: TabRule {
    var setName: String { get }
    /// Refuses what no database could take (an invalid title or payload) before anything
    /// is read or sent.
    func validate() throws(TabStoreError)
    /// What the rule reads of its set.
    var request: SnapshotRequest { get }
    func plan(_ snapshot: SetSnapshot, into plan: inout WritePlan, context: RuleContext) throws(TabStoreError) -> Outcome
}

extension SetRule {
    package var editedSet: String? { setName }

    package func validate() throws(TabStoreError) {}

    package func plan(reading reader: any SnapshotReader, into plan: inout WritePlan, context: RuleContext) throws(TabStoreError) -> Outcome {
        try validate()
        let snapshot = try context.snapshot(request, from: reader, into: &plan)
        return try self.plan(snapshot, into: &plan, context: context)
    }
}

/// Reads of the sets a write locks; nothing here writes.
package protocol SnapshotReader: AnyObject {
    /// Locks the set `request` names (when it exists) and reads what the request asks.
    func snapshot(_ request: SnapshotRequest) throws(TabStoreError) -> SetSnapshot
}

/// What a rule may know besides its snapshot.
package struct RuleContext: Sendable {
    package let options: TabStore.Options
    /// Whether the caller wants each set as the write leaves it.
    package let wantsResults: Bool

    package init(options: TabStore.Options, wantsResults: Bool) {
        self.options = options
        self.wantsResults = wantsResults
    }

    /// Takes `request`'s snapshot, asking for the tabs only when the caller wants the set
    /// as it will stand and the plan holds no copy of it at the set's revision, and starts
    /// the plan's image of the set.
    package func snapshot(
        _ request: SnapshotRequest, from reader: any SnapshotReader, into plan: inout WritePlan
    ) throws(TabStoreError) -> SetSnapshot {
        var request = request
        let known = plan.takeKnown(request.setName)
        if wantsResults { request.tabsForResult = .unlessHeld(known) }
        // Looked up whatever the name: one tabstore refuses to write can still be in a
        // file another program wrote, and must be reachable to be renamed or removed.
        let snapshot = try reader.snapshot(request)
        // Here, above every backend: no rule builds on rows that break the rules, or on an
        // integer that its arithmetic could overflow.
        try snapshot.requireSound()
        plan.start(request.setName, from: wantsResults ? snapshot.image(known: known) : nil)
        return snapshot
    }
}

extension SetSnapshot {
    /// The snapshot of a name no set has.
    package init(missing name: String) {
        self.init(name: name, record: nil, shape: nil, tabCount: 0, nameRevision: 0, tabs: nil, found: [], lastClosed: nil, other: nil, holders: [:])
    }

    /// The set as it stands, from the tabs read or from a copy at the same revision. A
    /// missing set is an empty one at its name's revision, which a rule may create.
    func image(known: TabSet?) -> PlannedSet? {
        guard let record else { return PlannedSet(name: name, tabs: [], revision: nameRevision) }
        if let tabs {
            let selected = record.selected
            return PlannedSet(name: name, tabs: tabs.map { $0.tab(selected: $0.id == selected?.id) }, revision: record.revision)
        }
        guard let known, known.revision == record.revision else { return nil }
        return PlannedSet(known)
    }
}

// The parts of every rule: revisions, journal rows, keeping positions contiguous.
extension WritePlan {
    /// Creates an empty set at the revision its name last reached (0 for a new name), so
    /// that its first change gets a revision never seen for the name.
    mutating func createSet(_ snapshot: SetSnapshot) throws(TabStoreError) -> SetRecord {
        try validSetName(snapshot.name)
        append(.insertSet(name: snapshot.name, revision: snapshot.nameRevision))
        return SetRecord(newNamed: snapshot.name, revision: snapshot.nameRevision)
    }

    /// Records a change: the revision grows (to `revision` when given, else by one), the
    /// selection is set (nil: no tab) and the event goes into the journal.
    mutating func commitChange(
        to set: SetRecord, selecting tab: TabKey?, event: consuming TabEvent, revision: Int? = nil
    ) {
        let newRevision = revision ?? set.revision + 1
        append(.updateSet(set.ref, revision: newRevision, selecting: tab))
        journal(event, setName: set.name, set: set.ref, revision: newRevision)
        edit(set.name) { $0.revision = newRevision }
    }

    mutating func journal(_ event: consuming TabEvent, setName: String, set: SetRef?, revision: Int) {
        append(.journal(JournalEntry(event: event, setName: setName, set: set, revision: revision, timestamp: currentTimestamp())))
    }

    /// Inserts `tabs` before index `index` of a set of `count` tabs, making room on the
    /// side with fewer tabs (appending or prepending moves none). Returns the new tabs' keys.
    mutating func insertTabs(_ tabs: [NewTab], at index: Int, in set: inout SetRecord, count: Int) -> [TabKey] {
        guard !tabs.isEmpty else { return [] }
        if index < count - index {
            shift(set, indices: 0..<index, by: -tabs.count)
            setBase(of: &set, to: set.base - tabs.count)
        } else {
            shift(set, indices: index..<count, by: tabs.count)
        }
        append(.insertTabs(tabs, into: set.ref, firstPosition: set.base + index))
        append(.forgetClosedTabsBackIn(set.ref))
        edit(set.name) { $0.insert(tabs, at: index) }
        return tabs.map { .uuid($0.uuid) }
    }

    /// Closes the holes that removing the tabs at `removed` (sorted, distinct indices of a
    /// set that had `count` tabs) left, shifting the side with fewer tabs.
    mutating func closeGaps(at removed: [Int], in set: inout SetRecord, count: Int) {
        guard let first = removed.first, let last = removed.last else { return }
        let rightSurvivors = count - first - removed.count
        let leftSurvivors = last - (removed.count - 1)
        if leftSurvivors < rightSurvivors {
            // Each run of tabs left of a hole moves right by the holes to its right.
            for (offset, hole) in removed.enumerated().reversed() {
                let start = offset == 0 ? 0 : removed[offset - 1] + 1
                shift(set, indices: start..<hole, by: removed.count - offset)
            }
            setBase(of: &set, to: set.base + removed.count)
        } else {
            // Each run of tabs right of a hole moves left by the holes to its left.
            for (offset, hole) in removed.enumerated() {
                let end = offset + 1 < removed.count ? removed[offset + 1] : count
                shift(set, indices: hole + 1..<end, by: -(offset + 1))
            }
        }
    }

    /// Moves `tab` to index `target` in a set of `count` tabs: either the tabs between the
    /// two shift by one, or those outside them do, whichever are fewer.
    mutating func moveTab(_ tab: TabRecord, from: Int, to target: Int, in set: inout SetRecord, count: Int) {
        let between = abs(target - from)
        let outside = min(from, target) + (count - 1 - max(from, target))
        let step = target > from ? 1 : -1
        if between <= outside {
            shift(set, indices: target > from ? from + 1..<target + 1 : target..<from, by: -step)
        } else {
            shift(set, indices: 0..<min(from, target), by: step)
            shift(set, indices: max(from, target) + 1..<count, by: step)
            setBase(of: &set, to: set.base + step)
        }
        append(.setPosition(tab: tab.id, position: set.base + target))
        edit(set.name) { $0.move(from: from, to: target) }
    }

    /// Records removed tabs, highest index first, so the lowest reopens first: at its old
    /// index, every tab that stood before it is back.
    mutating func rememberClosed(_ tabs: [TabRecord], selectedID: Int?, in set: SetRef, limit: Int) {
        let newestLast = tabs.sorted { $0.index > $1.index }.map { tab in
            // A tab whose stored id could not be read (a row edited by hand) reads as the nil
            // UUID; it comes back with an id of its own, not a second nil one.
            ClosingTab(
                title: tab.title, index: tab.index, wasSelected: tab.id == selectedID,
                uuid: tab.uuid == .unknown ? TabID() : tab.uuid, payload: tab.payload
            )
        }
        append(.rememberClosed(newestLast, in: set, limit: max(limit, 0)))
    }

    private mutating func shift(_ set: SetRecord, indices: Range<Int>, by delta: Int) {
        guard !indices.isEmpty else { return }
        append(.shiftTabs(set.ref, positions: set.base + indices.lowerBound..<set.base + indices.upperBound, by: delta))
    }

    private mutating func setBase(of set: inout SetRecord, to base: Int) {
        append(.setBase(set.ref, base))
        set.base = base
    }
}

/// Refuses titles that repeat each other or (when the snapshot looked them up) a tab
/// already in the set.
func requireDistinct(_ titles: [String], in snapshot: SetSnapshot?) throws(TabStoreError) {
    var seen = Set<ExactName>(minimumCapacity: titles.count)
    for title in titles {
        guard seen.insert(ExactName(title)).inserted else { throw TabStoreError(.repeatedTitle(title: title)) }
        if let snapshot, snapshot.tab(titled: title) != nil {
            throw TabStoreError(.duplicateTitle(title: title, set: snapshot.name))
        }
    }
}

/// The position an insertion index means: `0...count`, negative from the end (`-1` = append).
func insertionPosition(_ index: Int, count: Int) -> Int? {
    let position = index < 0 ? count + 1 + index : index
    return (0...count).contains(position) ? position : nil
}
