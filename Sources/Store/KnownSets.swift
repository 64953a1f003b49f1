/// Copies of sets as this store last wrote or read them, each at its revision.
///
/// A set's revision names one state of it forever (a name's revision never goes back,
/// whatever removes or renames its set), so a copy at the revision a write finds is that
/// set: the write need not read its tabs back to return the set it leaves, and a select on
/// a set of 10,000 tabs costs what one on 10 tabs does.
struct KnownSets {
    /// Sets kept, at most; the least recently used goes first.
    static let limit = 16
    /// Least recently used first. Few: a list, searched by name.
    private var sets: [HeldSet] = []

    private func place(of name: String) -> Int? {
        sets.firstIndex { sameBytes($0.set.name, name) }
    }

    /// The copy of the set `name`, taken out (so that the write that changes it owns its
    /// tabs alone and changes them in place); nil when none is kept.
    mutating func take(_ name: String) -> HeldSet? {
        place(of: name).map { sets.remove(at: $0) }
    }

    /// The copy of the set `name`, left in place.
    func peek(_ name: String) -> TabSet? {
        place(of: name).map { sets[$0].set }
    }

    /// Keeps `set` as read (where its selected tab's row is is not known).
    mutating func remember(_ set: TabSet) {
        remember(HeldSet(set: set, selectedRow: nil))
    }

    private mutating func remember(_ held: consuming HeldSet) {
        if let place = place(of: held.set.name) { sets.remove(at: place) }
        sets.append(held)
        if sets.count > Self.limit { sets.removeFirst() }
    }

    mutating func forget(_ name: String) {
        if let place = place(of: name) { sets.remove(at: place) }
    }

    /// Keeps what a committed plan left known, forgets what it changed unseen.
    mutating func update(from plan: WritePlan) {
        for name in plan.unknownResults { forget(name.text) }
        plan.forEachResult { result in
            if let held = result.image?.held { remember(held) } else { forget(result.name.text) }
        }
    }
}

/// A copy of a set the store holds, with its selected tab's row when the store knows it
/// (it wrote that selection, or read the set whole): a select can then check the stored
/// selection by its row id alone, without reading the tab's row.
package struct HeldSet: Sendable {
    package let set: TabSet
    package let selectedRow: SelectedRow?

    package init(set: TabSet, selectedRow: SelectedRow?) {
        self.set = set
        self.selectedRow = selectedRow
    }
}

/// The selected tab's row id and its index in the set.
package struct SelectedRow: Sendable, Equatable {
    package let id: Int
    package let index: Int

    package init(id: Int, index: Int) {
        self.id = id
        self.index = index
    }
}
