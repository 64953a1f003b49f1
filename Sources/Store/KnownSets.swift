/// Copies of sets as this store last wrote or read them, each at its revision.
///
/// A set's revision names one state of it forever (a name's revision never goes back,
/// whatever removes or renames its set), so a copy at the revision a write finds is that
/// set: the write need not read its tabs back to return the set it leaves, and a select on
/// a set of 10,000 tabs costs what one on 10 tabs does.
struct KnownSets {
    /// Sets kept, at most; the least recently used goes first.
    static let limit = 16
    private var sets: [ExactName: TabSet] = [:]
    /// Least recently used first.
    private var order: [ExactName] = []

    /// The copy of the set `name`, taken out (so that the write that changes it owns its
    /// tabs alone and changes them in place); nil when none is kept.
    mutating func take(_ name: String) -> TabSet? {
        let key = ExactName(name)
        guard let set = sets.removeValue(forKey: key) else { return nil }
        order.removeAll { $0 == key }
        return set
    }

    /// The copy of the set `name`, left in place.
    mutating func peek(_ name: String) -> TabSet? {
        sets[ExactName(name)]
    }

    mutating func remember(_ set: TabSet) {
        let key = ExactName(set.name)
        if sets.updateValue(set, forKey: key) != nil { order.removeAll { $0 == key } }
        order.append(key)
        if order.count > Self.limit { sets[order.removeFirst()] = nil }
    }

    mutating func forget(_ name: ExactName) {
        guard sets.removeValue(forKey: name) != nil else { return }
        order.removeAll { $0 == name }
    }

    /// Keeps what a committed plan left known, forgets what it changed unseen.
    mutating func update(from plan: WritePlan) {
        for name in plan.unknownResults { forget(name) }
        for (name, image) in plan.results {
            if let set = image?.tabSet { remember(set) } else { forget(name) }
        }
    }
}
