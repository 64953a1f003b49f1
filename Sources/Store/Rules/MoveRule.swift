/// Moving one tab so that it ends at an index (negative counts from the end). The
/// selection stays on the same tab.
package struct MoveRule: SetRule {
    package typealias Outcome = TabEvent?

    package let ref: TabRef
    package let destination: Int
    package let setName: String
    package let ifRevision: Int?

    package init(_ ref: TabRef, to destination: Int, in setName: String, ifRevision: Int? = nil) {
        self.ref = ref
        self.destination = destination
        self.setName = setName
        self.ifRevision = ifRevision
    }

    package var request: SnapshotRequest {
        var request = SnapshotRequest(setName: setName)
        request.lookUp(ref)
        request.tabCount = true
        return request
    }

    /// The `.moved` event, or nil for a move to where the tab already is.
    package func plan(_ snapshot: SetSnapshot, into plan: inout WritePlan, context: RuleContext) throws(TabStoreError) -> TabEvent? {
        var set = try snapshot.requireSet(ifRevision: ifRevision)
        let tab = try snapshot.resolve(ref)
        let count = snapshot.tabCount
        let target = destination < 0 ? destination + count : destination
        guard (0..<count).contains(target) else {
            throw TabStoreError(.indexOutOfRange(index: destination, count: count, set: setName))
        }
        guard target != tab.index else { return nil }
        plan.moveTab(tab, from: tab.index, to: target, in: &set, count: count)
        let event = TabEvent.moved(title: tab.title, from: tab.index, to: target)
        plan.commitChange(to: set, selecting: set.selected.map { .row($0.id) }, event: event)
        return event
    }
}

/// SwiftUI's `onMove(fromOffsets:toOffset:)`: the tabs at `offsets` end, in their order,
/// before the tab that was at `destination` (`count` for the end). Each tab that changes
/// place is one `.moved` change with a revision of its own, all in one transaction.
package struct MoveOffsetsRule: SetRule {
    package typealias Outcome = TabEvent?

    /// Sorted, distinct.
    package let sources: [Int]
    package let destination: Int
    package let setName: String
    package let ifRevision: Int?

    package init(_ offsets: some Sequence<Int>, toOffset destination: Int, in setName: String, ifRevision: Int? = nil) {
        sources = Set(offsets).sorted()
        self.destination = destination
        self.setName = setName
        self.ifRevision = ifRevision
    }

    package var request: SnapshotRequest {
        var request = SnapshotRequest(setName: setName)
        request.refs = sources.map(TabRef.index)
        request.tabCount = true
        return request
    }

    /// The last `.moved` event, nil when nothing moved.
    package func plan(_ snapshot: SetSnapshot, into plan: inout WritePlan, context: RuleContext) throws(TabStoreError) -> TabEvent? {
        let set = try snapshot.requireSet(ifRevision: ifRevision)
        return try plan.moveTabs(at: sources, toOffset: destination, in: set, snapshot: snapshot)
    }
}

/// Moving the tabs with these ids, kept in their order in the set, to stand before the
/// tab `anchor` (at the end when nil): SwiftUI's `onMove` said with ids, so that a tab
/// another process added or moved meanwhile does not change which tabs move. One write.
package struct MoveByIDRule: SetRule {
    package typealias Outcome = TabEvent?

    package let ids: [TabID]
    package let anchor: TabID?
    package let setName: String

    package init(_ ids: [TabID], before anchor: TabID?, in setName: String) {
        self.ids = ids
        self.anchor = anchor
        self.setName = setName
    }

    package var request: SnapshotRequest {
        var request = SnapshotRequest(setName: setName)
        request.refs = (ids + (anchor.map { [$0] } ?? [])).map(TabRef.id)
        request.tabCount = true
        return request
    }

    package func plan(_ snapshot: SetSnapshot, into plan: inout WritePlan, context: RuleContext) throws(TabStoreError) -> TabEvent? {
        let set = try snapshot.requireSet()
        var sources: [Int] = []
        for id in ids { sources.append(try snapshot.resolve(.id(id)).index) }
        let destination = try anchor.map { anchor throws(TabStoreError) in try snapshot.resolve(.id(anchor)).index } ?? snapshot.tabCount
        return try plan.moveTabs(at: Set(sources).sorted(), toOffset: destination, in: set, snapshot: snapshot)
    }
}

extension WritePlan {
    /// Moves the tabs at `sources` (sorted, distinct indices the snapshot looked up) to stand,
    /// in their order, before the tab at `destination`: one `.moved` change each, with a
    /// revision of its own. Returns the last event, nil when nothing moved. Only offsets can
    /// be out of range (an id resolves to a tab's index), so those are the errors thrown.
    mutating func moveTabs(
        at sources: [Int], toOffset destination: Int, in set: SetRecord, snapshot: SetSnapshot
    ) throws(TabStoreError) -> TabEvent? {
        var set = set
        let count = snapshot.tabCount
        if let bad = sources.first(where: { !(0..<count).contains($0) }) {
            throw TabStoreError(.offsetOutOfRange(offset: bad, count: count, set: set.name))
        }
        guard (0...count).contains(destination) else {
            throw TabStoreError(.insertionOffsetOutOfRange(offset: destination, count: count, set: set.name))
        }
        // Tabs left of the destination move right, the last first; those right of it move
        // left, the first first: no move disturbs a tab already in its place, so the tab
        // at each step's `from` is still the source tab read.
        let left = sources.filter { $0 < destination }
        let right = sources.filter { $0 >= destination }
        var steps: [(from: Int, to: Int)] = []
        for (offset, source) in left.enumerated().reversed() {
            steps.append((source, destination - left.count + offset))
        }
        for (offset, source) in right.enumerated() {
            steps.append((source, destination + offset))
        }
        var lastEvent: TabEvent?
        for step in steps where step.from != step.to {
            guard let tab = snapshot.tabStanding(at: step.from) else { continue }
            moveTab(tab, from: step.from, to: step.to, in: &set, count: count)
            let event = TabEvent.moved(title: tab.title, from: step.from, to: step.to)
            commitChange(to: set, selecting: set.selected.map { .row($0.id) }, event: event)
            set = set.atRevision(set.revision + 1)
            lastEvent = event
        }
        return lastEvent
    }
}
