extension TabStore {
    /// The set as stored: its tabs in order, the selected one marked.
    ///
    /// - Throws: `TabStoreError.Code.setNotFound`, `.damagedSet` (its rows break the tab rules:
    ///   every index read from them could be wrong), or a database error.
    public func tabSet(named setName: String) throws(TabStoreError) -> TabSet {
        let known = setCache.withLock { $0.peek(setName) }
        let set = try reading { database throws(TabStoreError) in
            try database.readTransaction { () throws(TabStoreError) in
                let record = try database.requireSet(named: setName)
                // A copy at the set's revision is the set: its tabs need no reading.
                if let known, known.revision == record.revision { return known }
                return try database.tabSet(of: record)
            }
        }
        setCache.withLock { $0.remember(set) }
        return set
    }

    /// Every set without its tabs, sorted by name (byte order).
    ///
    /// An overview, read without the rule check (`info` runs it; a read or write of the set
    /// refuses a damaged one): a set whose rows break the rules is listed with what its
    /// rows say (its count is of its tab rows), except that a selected index outside
    /// `0..<tabCount` (or a selected tab of another set) reads as no selection.
    public func tabSets() throws(TabStoreError) -> [TabSetSummary] {
        try reading { database throws(TabStoreError) in try database.setSummaries() }.map(\.withinItsSet)
    }

    /// The selected tab and its index, the state an app restores at launch: the
    /// selection rules' `lastSelectedIndex` (<doc:SelectionRules>). Reads one row when the store holds the set at its
    /// revision; otherwise it checks the set's rows too, as a write does.
    ///
    /// - Throws: `TabStoreError.Code.setNotFound`, `.emptySet`, `.damagedSet` (its rows break
    ///   the tab rules: its selected tab's index could be any, even outside the set).
    public func selectedTab(in setName: String) throws(TabStoreError) -> TabUpdate {
        let known = setCache.withLock { $0.peek(setName) }
        return try reading { database throws(TabStoreError) in
            // A copy at the set's revision stands for its rows (see `SetCache`): when it has
            // the tab the row selects at the same index, the rows were checked.
            if let known, let record = try database.setRecord(named: setName), known.revision == record.revision,
               let selected = record.selected, let index = known.selectedIndex, index == selected.index,
               known.tabs[index].id == selected.uuid {
                return TabUpdate(index: selected.index, tab: selected.tab(selected: true))
            }
            return try database.readTransaction { () throws(TabStoreError) in
                let record = try database.requireSet(named: setName)
                try database.rowsSummary(of: record).requireSound()
                guard let selected = record.selected else { throw TabStoreError(.emptySet(set: setName)) }
                return TabUpdate(index: selected.index, tab: selected.tab(selected: true))
            }
        }
    }

    /// Path (or server), schema version, set count and a consistency check's answer
    /// (`PRAGMA integrity_check` for a file: it reads the whole file, so it takes longer the
    /// larger the file).
    public func info() throws(TabStoreError) -> StoreInfo {
        let info = try backend.info()
        let ruleProblems: [String]
        do throws(TabStoreError) {
            ruleProblems = try reading { database throws(TabStoreError) in
                try database.readTransaction { () throws(TabStoreError) in
                    var tabTexts = RuleCheck.TabTextCheck()
                    try database.forEachTabText { tabTexts.check(setName: $0, title: $1, payload: $2) }
                    return RuleCheck.problems(
                        in: try database.rowsSummaries(), tabTexts: tabTexts,
                        nameRevisions: try database.nameRevisions(outside: RuleCheck.countRange)
                    )
                }
            } + RuleCheck.syncLogProblems(unreadable: try backend.syncDevice?.readLog { log throws(TabStoreError) in try log.unreadableMutations() } ?? [])
        } catch .corrupt {
            // The rule check reads every tab row: damage the storage check reports can stop
            // it. Said as a finding, as the storage check says its own stop.
            ruleProblems = ["(the rule check stopped: the file is too damaged to read)"]
        }
        return info.adding(ruleProblems)
    }
}

extension TabSetSummary {
    /// The summary with a count no lower than 0 and a selection only inside the set.
    var withinItsSet: TabSetSummary {
        let count = max(tabCount, 0)
        let inside = selectedIndex.map { (0..<count).contains($0) } ?? false
        return TabSetSummary(
            name: name, tabCount: count, selectedIndex: inside ? selectedIndex : nil, selectedTitle: inside ? selectedTitle : nil,
            revision: revision
        )
    }
}

extension TabRecords {
    /// The set, which must exist.
    package func requireSet(named name: String) throws(TabStoreError) -> SetRecord {
        guard let record = try setRecord(named: name) else { throw TabStoreError(.setNotFound(set: name)) }
        return record
    }

    package func loadTabSet(named setName: String) throws(TabStoreError) -> TabSet {
        try tabSet(of: try requireSet(named: setName))
    }

    /// The set `record` names, with its tabs, once the rule check finds it sound.
    ///
    /// - Throws: `TabStoreError.Code.damagedSet`, or a database error.
    package func tabSet(of record: SetRecord) throws(TabStoreError) -> TabSet {
        let (tabs, shape) = try tabsWithRowsSummary(of: record)
        try shape.requireSound()
        let selected = record.selected?.id
        return TabSet(name: record.name, tabs: tabs.map { $0.tab(selected: $0.id == selected) }, revision: record.revision)
    }
}
