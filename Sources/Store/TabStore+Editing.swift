/// The tab rules (<doc:SelectionRules>): one selected tab per non-empty set, the selection
/// follows the tab, a reselect is an event but not a change.
extension TabStore {
    /// Adds tabs to a set. Into an empty set, the first added tab becomes selected.
    /// A missing set is `.setNotFound`, so a misspelled name makes no set, unless
    /// `creatingSet` is true (or the set was made with ``createSet(_:)-23w88``).
    ///
    /// For example:
    /// ```swift
    /// try store.add(["Home", "All menu", "Reviews"], to: "store-detail", creatingSet: true)
    /// try store.add(["Pinned"], to: "store-detail", at: 0, payload: ["icon": "pin"])
    /// ```
    /// - Parameter titles: the new tabs' titles, in order; none repeated, none already in the set.
    /// - Parameter setName: the set to add to.
    /// - Parameter index: where the first new tab goes, `0...count`; negative counts from
    ///   the end, so `-1` appends (the default).
    /// - Parameter payload: each new tab's payload (see ``payloadLimit``).
    /// - Parameter creatingSet: make the set when it is missing, instead of `.setNotFound`.
    /// - Parameter ifRevision: when given, the call fails with `.revisionMismatch` unless
    ///   the set is at that revision (a missing set is at 0): optimistic concurrency.
    /// - Throws: `TabStoreError.Code.setNotFound`, `.invalidTitle`, `.invalidSetName`, `.duplicateTitle`, `.repeatedTitle`,
    ///   `.insertionIndexOutOfRange`, `.payloadTooLarge`, `.emptyPayloadKey`, `.payloadContainsNUL`, `.revisionMismatch`,
    ///   `.missingSetRevision`, or a database error.
    @discardableResult
    public func add(
        _ titles: [String], to setName: String, at index: Int = -1, payload: [String: String] = [:],
        ifRevision: Int? = nil, creatingSet: Bool = false
    ) throws(TabStoreError) -> TabSetEdit {
        try perform(AddRule(
            titles.map { NewTab(title: $0, payload: payload) }, to: setName, at: index, ifRevision: ifRevision, creatingSet: creatingSet
        ))
    }

    /// Adds tabs with a payload each, in one write; otherwise as ``add(_:to:at:payload:ifRevision:creatingSet:)-61dyf``.
    ///
    /// For example:
    /// ```swift
    /// try store.add([NewTab("Home", payload: ["route": "/home"]), NewTab("Map", payload: ["route": "/map"])], to: "main", creatingSet: true)
    /// ```
    /// - Throws: what ``add(_:to:at:payload:ifRevision:creatingSet:)-61dyf`` throws.
    @discardableResult
    public func add(
        _ tabs: [NewTab], to setName: String, at index: Int = -1, ifRevision: Int? = nil, creatingSet: Bool = false
    ) throws(TabStoreError) -> TabSetEdit {
        try perform(AddRule(tabs, to: setName, at: index, ifRevision: ifRevision, creatingSet: creatingSet))
    }

    /// The set, made with `defaultTabs` (the first selected) when it is missing, left as it
    /// is when it exists: one call at every launch, in one write, so two processes launching
    /// at once make it once. A set that exists is read without the write lock, so a launch
    /// neither waits for another process's write nor fails on a read-only database.
    ///
    /// For example:
    /// ```swift
    /// let bar = try store.ensureSet("main", defaultTabs: [NewTab("Home"), NewTab("Reviews")])
    /// ```
    /// - Returns: the set; its event is `.added` when this call made it, nil when it was there.
    /// - Throws: `TabStoreError.Code.invalidSetName`, `.invalidTitle`, `.repeatedTitle`,
    ///   `.payloadTooLarge`, `.emptyPayloadKey`, or a database error.
    @discardableResult
    public func ensureSet(_ setName: String, defaultTabs: [NewTab]) throws(TabStoreError) -> TabSetEdit {
        let rule = EnsureSetRule(setName, tabs: defaultTabs)
        // Refused defaults are refused whether or not the set exists.
        try rule.validate()
        do {
            return TabSetEdit(set: try tabSet(named: setName), event: nil)
        } catch {
            // Missing (or a name no set can have): the write makes it, or says why not.
            guard case .setNotFound = error else { throw error }
        }
        return try perform(rule)
    }

    /// Makes an empty set. Creating a set that exists is `.setAlreadyExists`.
    ///
    /// - Throws: `TabStoreError.Code.setAlreadyExists`, `.invalidSetName`, or a database error.
    @discardableResult
    public func createSet(_ setName: String) throws(TabStoreError) -> TabSetEdit {
        try perform(CreateSetRule(setName))
    }

    /// Selects a tab. Selecting the tab that is already selected writes nothing and
    /// returns a reselection (`updates` empty): still an event for the caller.
    ///
    /// - Returns: the update pairs (<doc:SelectionRules>): the old tab, now deselected, then the new
    ///   one; and the set as it now stands.
    /// - Throws: `TabStoreError.Code.setNotFound`, `.emptySet`, `.tabNotFound`, `.indexOutOfRange`,
    ///   `.revisionMismatch`.
    @discardableResult
    public func select(_ ref: TabRef, in setName: String, ifRevision: Int? = nil) throws(TabStoreError) -> SelectionChange {
        let (selection, plan) = try performSelect(ref, in: setName, ifRevision: ifRevision, wantsResult: true)
        return SelectionChange(selection, set: try result(of: plan, named: setName))
    }

    /// Removes tabs; all references are resolved before anything is removed, and a tab
    /// named twice is removed once. When the selected tab goes, its right neighbour is
    /// selected, or the new last tab when it was last.
    ///
    /// - Throws: `TabStoreError.Code.setNotFound`, `.tabNotFound`, `.indexOutOfRange`, `.revisionMismatch`.
    @discardableResult
    public func remove(_ refs: [TabRef], from setName: String, ifRevision: Int? = nil) throws(TabStoreError) -> TabSetEdit {
        try perform(RemoveRule(refs, from: setName, ifRevision: ifRevision))
    }

    /// Moves a tab so that it ends at index `destination` (negative counts from the end).
    /// The selection stays on the same tab.
    ///
    /// - Throws: `TabStoreError.Code.setNotFound`, `.tabNotFound`, `.indexOutOfRange`, `.revisionMismatch`.
    @discardableResult
    public func move(
        _ ref: TabRef, to destination: Int, in setName: String, ifRevision: Int? = nil
    ) throws(TabStoreError) -> TabSetEdit {
        try perform(MoveRule(ref, to: destination, in: setName, ifRevision: ifRevision))
    }

    /// Gives a tab a new title; renaming to the same title changes nothing.
    ///
    /// - Throws: `TabStoreError.Code.invalidTitle`, `.duplicateTitle`, `.setNotFound`,
    ///   `.tabNotFound`, `.indexOutOfRange`, `.revisionMismatch`.
    @discardableResult
    public func rename(
        _ ref: TabRef, to newTitle: String, in setName: String, ifRevision: Int? = nil
    ) throws(TabStoreError) -> TabSetEdit {
        try perform(RenameRule(ref, to: newTitle, in: setName, ifRevision: ifRevision))
    }

    /// Replaces a set's whole tab list (<doc:SelectionRules>: `items` can be set again), creating the set
    /// when missing. The selected title stays selected when it is still there, else
    /// the first tab is. A title that was there before stays the same tab: its id and
    /// payload are kept.
    ///
    /// - Throws: `TabStoreError.Code.invalidTitle`, `.invalidSetName`, `.duplicateTitle`, `.revisionMismatch`.
    @discardableResult
    public func replaceTabs(of setName: String, with titles: [String], ifRevision: Int? = nil) throws(TabStoreError) -> TabSetEdit {
        try perform(ReplaceRule(setName, with: titles, ifRevision: ifRevision))
    }

    /// Renames a whole set. Its revision goes above every revision either name has
    /// reached, and the old name keeps that revision as its last.
    ///
    /// - Returns: the set under its new name, and the `.setRenamed` event (`nil` for the same name).
    /// - Throws: `TabStoreError.Code.setNotFound`, `.setAlreadyExists`, `.invalidSetName`, `.revisionMismatch`.
    @discardableResult
    public func renameSet(_ setName: String, to newName: String, ifRevision: Int? = nil) throws(TabStoreError) -> TabSetEdit {
        let (event, plan) = try perform(RenameSetRule(setName, to: newName, ifRevision: ifRevision), wantsResult: true)
        return TabSetEdit(set: try result(of: plan, named: event == nil ? setName : newName), event: event)
    }

    /// Deletes a set with all its tabs. Its name keeps the revision of the removal, so
    /// a set made later under that name goes on above it.
    ///
    /// - Throws: `TabStoreError.Code.setNotFound`, `.revisionMismatch`.
    public func removeSet(_ setName: String, ifRevision: Int? = nil) throws(TabStoreError) {
        try perform(RemoveSetRule(setName, ifRevision: ifRevision), wantsResult: false)
    }

    /// Runs `rule` in one write transaction, then tells this store's observers what it
    /// committed. With `wantsResult`, the plan knows each set as the write leaves it.
    @discardableResult
    func perform<R: TabRule>(
        _ rule: R, wantsResult: Bool, progress: ((Int) -> Void)? = nil
    ) throws(TabStoreError) -> (outcome: R.Outcome, plan: WritePlan) {
        // Moved into the plan, not shared: the write changes its tabs in place. A write
        // run again (a server's retry) finds none and reads the tabs.
        var known = wantsResult ? rule.editedSet.flatMap { name in setCache.withLock { $0.take(name) } } : nil
        var outcome: R.Outcome?
        let plan = try transaction(progress: progress) { reader throws(TabStoreError) in
            var plan = WritePlan()
            if let held = known.take() { plan.hold(held) }
            // A device that syncs records the edit's mutations, worked out from the sets
            // as the plan leaves them, in the same transaction.
            let recording = try reader.recordsMutations()
            let context = RuleContext(options: options, wantsResults: wantsResult || recording)
            outcome = try rule.plan(reading: reader, into: &plan, context: context)
            if recording { try plan.recordMutations(of: rule) }
            return plan
        }
        setCache.withLock { $0.update(from: plan) }
        hub.publish()
        // A backend returns only after planning, so the outcome is there.
        guard let outcome else { throw TabStoreError(.internalFailure(database: location, reason: "a write returned without running its rule")) }
        return (outcome, plan)
    }

    /// Runs a rule whose outcome is its event, returning the set as it leaves it.
    func perform<R: SetRule>(_ rule: R) throws(TabStoreError) -> TabSetEdit where R.Outcome == TabEvent? {
        let (event, plan) = try perform(rule, wantsResult: true)
        return TabSetEdit(set: try result(of: plan, named: rule.setName), event: event)
    }

    /// Runs a select. A reselection writes nothing, so it is journaled nowhere: only this
    /// process's observers hear it, from here.
    private func performSelect(
        _ ref: TabRef, in setName: String, ifRevision: Int?, wantsResult: Bool
    ) throws(TabStoreError) -> (selection: Selection, plan: WritePlan) {
        let (selection, plan) = try perform(SelectRule(ref, in: setName, ifRevision: ifRevision), wantsResult: wantsResult)
        if selection.isReselection {
            let event = TabEvent.reselected(TabUpdate(index: selection.selectedIndex, tab: selection.selectedTab.with(payload: [:])))
            hub.publish(local: [TabChange(setName: setName, revision: selection.revision, event: event, timestamp: currentTimestamp())])
        }
        return (selection, plan)
    }

    /// The set as a write left it: computed with the plan, else (never expected) read.
    func result(of plan: WritePlan, named name: String) throws(TabStoreError) -> TabSet {
        if let set = plan.result(of: name) { return set }
        return try tabSet(named: name)
    }

    /// Selects a tab as ``select(_:in:ifRevision:)-2f083`` does, without working out the set it
    /// leaves: for a caller that shows only what changed (the CLI's `select`). It reads the
    /// two tabs it changes, not the set: a select in a set of 10,000 tabs costs about what
    /// it costs in one of 10.
    ///
    /// - Returns: the update pairs (<doc:SelectionRules>): the old tab, now deselected, then
    ///   the new one; empty on a reselection.
    /// - Throws: as ``select(_:in:ifRevision:)-2f083`` does.
    @discardableResult
    public func selectOnly(_ ref: TabRef, in setName: String, ifRevision: Int? = nil) throws(TabStoreError) -> Selection {
        try performSelect(ref, in: setName, ifRevision: ifRevision, wantsResult: false).selection
    }
}

extension SelectionChange {
    init(_ selection: consuming Selection, set: TabSet) {
        self.init(
            setName: selection.setName, previousIndex: selection.previousIndex, selectedIndex: selection.selectedIndex,
            selectedTab: selection.selectedTab, updates: selection.updates, revision: selection.revision, set: set
        )
    }
}
