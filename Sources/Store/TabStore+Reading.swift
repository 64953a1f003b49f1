extension TabStore {
    /// The set as stored: its tabs in order, the selected one marked.
    ///
    /// - Throws: `TabStoreError.setNotFound`, or a database error.
    public func tabSet(named setName: String) throws(TabStoreError) -> TabSet {
        let known = knownSets.withLock { $0.peek(setName) }
        let set = try reading { database throws(TabStoreError) in
            try database.readTransaction { () throws(TabStoreError) in
                let record = try database.requireSet(named: setName)
                // A copy at the set's revision is the set: its tabs need no reading.
                if let known, known.revision == record.revision { return known }
                return try database.tabSet(of: record)
            }
        }
        knownSets.withLock { $0.remember(set) }
        return set
    }

    /// Every set without its tabs, sorted by name (byte order).
    public func tabSets() throws(TabStoreError) -> [TabSetSummary] {
        try reading { database throws(TabStoreError) in try database.setSummaries() }
    }

    /// The selected tab and its index, the state an app restores at launch: the
    /// documents' `lastSelectedIndex`. Reads one row, however large the set.
    ///
    /// - Throws: `TabStoreError.setNotFound`, `.emptySet`.
    public func selectedTab(in setName: String) throws(TabStoreError) -> TabUpdate {
        try reading { database throws(TabStoreError) in
            guard let selected = try database.requireSet(named: setName).selected else {
                throw .emptySet(set: setName)
            }
            return TabUpdate(index: selected.index, tab: selected.tab(selected: true))
        }
    }

    /// Path (or server), schema version, set count and a consistency check's answer
    /// (`PRAGMA integrity_check` for a file: it reads the whole file, about 60 ms for
    /// 10,000 sets).
    public func info() throws(TabStoreError) -> StoreInfo {
        let info = try backend.info()
        let ruleProblems: [String]
        do throws(TabStoreError) {
            ruleProblems = try reading { database throws(TabStoreError) in RuleCheck.problems(in: try database.setShapes()) }
        } catch .corrupt {
            // The rule check reads every tab row: damage the storage check reports can stop
            // it. Said as a finding, as the storage check says its own stop.
            ruleProblems = ["(the rule check stopped: the file is too damaged to read)"]
        }
        return info.adding(ruleProblems)
    }
}

extension TabRecords {
    /// The set, which must exist.
    package func requireSet(named name: String) throws(TabStoreError) -> SetRecord {
        guard let record = try setRecord(named: name) else { throw .setNotFound(set: name) }
        return record
    }

    package func loadTabSet(named setName: String) throws(TabStoreError) -> TabSet {
        try tabSet(of: try requireSet(named: setName))
    }

    /// The set `record` names, with its tabs.
    package func tabSet(of record: SetRecord) throws(TabStoreError) -> TabSet {
        let selected = record.selected?.id
        let tabs = try tabs(in: record).map { $0.tab(selected: $0.id == selected) }
        return TabSet(name: record.name, tabs: tabs, revision: record.revision)
    }
}
