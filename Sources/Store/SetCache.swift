/// Copies of sets as this store last wrote or read them, each at its revision.
///
/// A set's revision names one state of it forever (a name's revision never goes back,
/// whatever removes or renames its set), so a copy at the revision a write finds is that
/// set: the write need not read its tabs back to return the set it leaves, and a select on
/// a set of 10,000 tabs costs what one on 10 tabs does.
struct SetCache {
    /// Sets kept, at most; the least recently used goes first.
    static let limit = 16
    /// Least recently used first. Few: a list, searched by name.
    private var sets: [TabSet] = []

    private func place(of name: String) -> Int? {
        sets.firstIndex { sameBytes($0.name, name) }
    }

    /// The copy of the set `name`, taken out (a write changes it and keeps what it leaves);
    /// nil when none is kept.
    mutating func take(_ name: String) -> TabSet? {
        place(of: name).map { sets.remove(at: $0) }
    }

    /// The copy of the set `name`, left in place.
    func peek(_ name: String) -> TabSet? {
        place(of: name).map { sets[$0] }
    }

    mutating func remember(_ set: TabSet) {
        if let place = place(of: set.name) { sets.remove(at: place) }
        sets.append(set)
        if sets.count > Self.limit { sets.removeFirst() }
    }

    mutating func forget(_ name: String) {
        if let place = place(of: name) { sets.remove(at: place) }
    }

    /// Keeps what a committed plan left known, forgets what it changed unseen.
    mutating func update(from plan: WritePlan) {
        for name in plan.unknownResults { forget(name.text) }
        for result in plan.results {
            if let set = result.image?.tabSet { remember(set) } else { forget(result.name.text) }
        }
    }
}
