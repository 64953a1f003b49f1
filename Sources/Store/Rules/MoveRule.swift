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
        request.refs = [ref]
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
            throw .indexOutOfRange(index: destination, count: count, set: setName)
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
        var set = try snapshot.requireSet(ifRevision: ifRevision)
        let count = snapshot.tabCount
        if let bad = sources.first(where: { !(0..<count).contains($0) }) {
            throw .indexOutOfRange(index: bad, count: count, set: setName)
        }
        guard (0...count).contains(destination) else {
            throw .insertionIndexOutOfRange(index: destination, count: count, set: setName)
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
            guard let tab = snapshot.tab(at: step.from) else { continue }
            plan.moveTab(tab, from: step.from, to: step.to, in: &set, count: count)
            let event = TabEvent.moved(title: tab.title, from: step.from, to: step.to)
            plan.commitChange(to: set, selecting: set.selected.map { .row($0.id) }, event: event)
            set = set.atRevision(set.revision + 1)
            lastEvent = event
        }
        return lastEvent
    }
}
