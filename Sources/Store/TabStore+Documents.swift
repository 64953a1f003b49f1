/// Export and import of the document format (`TabStoreDocument`); the import's rules are
/// `ImportRule`.
extension TabStore {
    /// The named sets (all sets, sorted by name, when `setNames` is empty) as a document.
    ///
    /// - Throws: `TabStoreError.Code.setNotFound` for a name that is not there.
    public func export(_ setNames: [String] = []) throws(TabStoreError) -> TabStoreDocument {
        try reading { database throws(TabStoreError) in
            try database.readTransaction { () throws(TabStoreError) in
                var names = setNames
                if names.isEmpty {
                    names = try database.setNames()
                }
                var entries: [TabStoreDocument.Entry] = []
                // Each set once, however often it was asked for: import refuses repeats.
                var seen = Set<ExactName>()
                for name in names where seen.insert(ExactName(name)).inserted {
                    entries.append(.init(try database.loadTabSet(named: name)))
                }
                return TabStoreDocument(sets: entries)
            }
        }
    }

    /// Writes every set of `document`, all or nothing. A set that already exists is an
    /// error unless `replace` is true; then its tabs and selection are replaced and its
    /// revision keeps growing, unless they are already as in the document: such a set
    /// is not written at all (no new revision, no journal row). A set the import creates
    /// is journaled as added (and then selected, when its selection is not its first tab).
    ///
    /// `progress`, when given, is called after each tab is written (or found already as in
    /// the document) with the tabs done so far and the document's total, inside the
    /// transaction: keep it quick.
    ///
    /// The document is checked first (``TabStoreDocument/validate()``): an invalid one
    /// writes nothing.
    ///
    /// - Returns: how many sets were written; the others were already as in the document.
    /// - Throws: `TabStoreError.Code.setAlreadyExists`, `.invalidDocument`, or a database error.
    @discardableResult
    public func importDocument(
        _ document: TabStoreDocument, replace: Bool = false,
        progress: ((_ tabsWritten: Int, _ totalTabs: Int) -> Void)? = nil
    ) throws(TabStoreError) -> Int {
        try document.validate()
        let totalTabs = document.sets.reduce(0) { $0 + $1.tabs.count }
        // A write run again (a server's retry) counts from 0 again: report only what
        // goes beyond what was reported, so progress never repeats or passes the total.
        var reported = 0
        let report = progress.map { report in
            { (done: Int) in
                guard done > reported else { return }
                reported = done
                report(done, totalTabs)
            }
        }
        return try perform(ImportRule(document, replace: replace), wantsResult: false, progress: report).outcome
    }
}
