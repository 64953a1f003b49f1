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

    /// Path (or server), schema version, set count and a consistency check's answer
    /// (`PRAGMA quick_check` for a file).
    public func info() throws(TabStoreError) -> StoreInfo {
        try backend.info()
    }
}

extension TabRecords {
    func edit(of setName: String, event: TabEvent?) throws(TabStoreError) -> TabSetEdit {
        TabSetEdit(set: try finalTabSet(named: setName), event: event)
    }

    package func loadTabSet(named setName: String) throws(TabStoreError) -> TabSet {
        let set = try requireSet(named: setName)
        return try tabSet(of: set, selectedTabID: set.selected?.id, revision: set.revision)
    }

    /// The set `record` names, as it stands once `selectedTabID` is selected and the set is
    /// at `revision`: for an edit that changed no position, so its record need not be read again.
    package func tabSet(of record: SetRecord, selectedTabID: Int?, revision: Int) throws(TabStoreError) -> TabSet {
        let tabs = try tabs(in: record).map { $0.tab(selected: $0.id == selectedTabID) }
        return TabSet(name: record.name, tabs: tabs, revision: revision)
    }
}
