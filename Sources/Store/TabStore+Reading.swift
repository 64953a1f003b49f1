extension TabStore {
    /// The set as stored: its tabs in order, the selected one marked.
    ///
    /// - Throws: `TabStoreError.setNotFound`, or a database error.
    public func tabSet(named setName: String) throws(TabStoreError) -> TabSet {
        try reading { database throws(TabStoreError) in
            try database.readTransaction { () throws(TabStoreError) in try database.loadTabSet(named: setName) }
        }
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

    /// Path, schema version, set count and `PRAGMA quick_check`'s answer.
    public func info() throws(TabStoreError) -> StoreInfo {
        try reading { database throws(TabStoreError) in
            let (version, sets) = try database.readTransaction { () throws(TabStoreError) in
                (try database.schemaState().version, try database.setCount())
            }
            // Outside the transaction: a check that trips over the damage it reports ends a
            // read transaction in error, and it is its own consistent read anyway.
            var problems: [String] = []
            do throws(TabStoreError) {
                try database.quickCheck { problems.append($0) }
            } catch .corrupt {
                problems.append("(the check stopped: the file is too damaged to read further)")
            }
            return StoreInfo(path: path, schemaVersion: version, setCount: sets, quickCheck: problems.joined(separator: "; "))
        }
    }
}

extension Database {
    func edit(of setName: String, event: TabEvent?) throws(TabStoreError) -> TabSetEdit {
        TabSetEdit(set: try loadTabSet(named: setName), event: event)
    }

    func loadTabSet(named setName: String) throws(TabStoreError) -> TabSet {
        let set = try requireSet(named: setName)
        return try tabSet(of: set, selectedTabID: set.selected?.id, revision: set.revision)
    }

    /// The set `record` names, as it stands once `selectedTabID` is selected and the set is
    /// at `revision`: for an edit that changed no position, so its record need not be read again.
    func tabSet(of record: SetRecord, selectedTabID: Int?, revision: Int) throws(TabStoreError) -> TabSet {
        let tabs = try tabs(in: record).map { $0.tab(selected: $0.id == selectedTabID) }
        return TabSet(name: record.name, tabs: tabs, revision: revision)
    }
}
