// The writes a `WritePlan` holds, as a backend executes them: those the rules plan
// (Sources/Store/Rules) and sync's bookkeeping (Sources/Store/Sync), which only sync
// plans. Declared here, at the backend boundary, so that the rules name nothing of sync.

/// One typed write. Positions are the stored ones (index + the set's base).
package enum PlannedWrite: Sendable {
    case insertSet(name: String, revision: Int)
    case renameSet(SetRef, to: String)
    /// Deletes the set row; its tabs and removed tabs go with it.
    case deleteSet(SetRef)
    /// Remembers that `name` reached `revision` as its set left it (keeping a higher one).
    case retireName(String, revision: Int)
    case setBase(SetRef, Int)
    /// The set's revision and selected tab (nil: none).
    case updateSet(SetRef, revision: Int, selecting: TabKey?)
    /// Adds `delta` to the position of the set's tabs in `positions`.
    case shiftTabs(SetRef, positions: Range<Int>, by: Int)
    case setPosition(tab: Int, position: Int)
    /// Tab rows at `firstPosition` onward (free: the writes before made room).
    case insertTabs([NewTab], into: SetRef, firstPosition: Int)
    case deleteTabs([Int])
    case deleteAllTabs(SetRef)
    case renameTab(Int, to: String)
    /// The payload (an empty one stored as none).
    case setPayload(tab: Int, [String: String])
    /// Records removed tabs (in the order given) and forgets the oldest beyond `limit`.
    case rememberClosed([ClosingTab], in: SetRef, limit: Int)
    case deleteClosedTab(id: Int)
    /// Forgets removed tabs with these ids, in any set (tabs are back under them).
    case forgetClosedTabs(withIDs: [TabID])
    /// Forgets the set's removed tabs whose title is in the set again: they cannot come back.
    case forgetClosedTabsBackIn(SetRef)
    case journal(JournalEntry)
    /// Unlinks a removed set's changes from its row id, which a new set may get.
    case unlinkJournal(SetRef)
    /// Counts `tabs` as done for an import's progress without writing them (already as
    /// the document has them).
    case skipTabs(Int)
    /// A device's edit's mutations, numbered on from its last (see migrations/0010_sync.sql).
    case recordMutations([TabMutation])
    /// A server's record that a device's mutation `number` (`body`, as it was sent) was
    /// applied (`refusal` nil) or refused.
    case settleMutation(device: String, number: Int, body: String, refusal: TabSyncRefusal?)
    /// A device's own bookkeeping of its sync.
    case updateSyncDevice(SyncDeviceUpdate)
}

extension PlannedWrite {
    /// Whether this write is a journal row (every write that changes a set journals one).
    package var isJournalRow: Bool {
        if case .journal = self { return true }
        return false
    }
}
