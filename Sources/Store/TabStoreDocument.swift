/// The export and import document: every (or some) set with its tabs and selection.
///
/// A plain value that conforms to `Codable`, so an app stores it with the coder it
/// already uses (`JSONEncoder`, `PropertyListEncoder`, ...). Its coded form has the keys
/// of the `tabstore export` file, which the CLI reads and writes:
///
/// ```json
/// {"format": "tabstore", "version": 2,
///  "sets": [{"name": "main", "selectedIndex": 0, "tabs": ["Home", "Reviews"],
///            "ids": ["0f8fad5b-d9cb-469f-a165-70867728950e", "7c9e6679-7425-40de-944b-e07fc1f90ae7"],
///            "payloads": [{"icon": "house"}, {}]}]}
/// ```
/// `selectedIndex` is `null` exactly when `tabs` is empty. `ids` (version 2) gives each
/// tab's id, which an import keeps; `payloads`, when present, each tab's payload.
/// Version 1 documents (no `ids`, no `payloads`) still decode and import: their tabs get
/// fresh ids. Decoding checks the `format` and `version` header; ``validate()`` (which
/// ``TabStore/importDocument(_:replace:progress:)-84w29`` runs first) checks the content.
public struct TabStoreDocument: Sendable, Hashable, Codable {
    /// One set: its name, its tabs in order and the index of its selected tab.
    public struct Entry: Sendable, Hashable, Codable {
        public var name: String
        public var selectedIndex: Int?
        public var tabs: [String]
        /// Each tab's id, in order; `nil` (a version 1 document) gives the tabs fresh ids.
        public var ids: [TabID]?
        /// Each tab's payload, in order; `nil` for no payloads.
        public var payloads: [[String: String]]?

        /// A set's entry; without `ids` its tabs get fresh ids when imported.
        public init(name: String, selectedIndex: Int?, tabs: [String], ids: [TabID]? = nil, payloads: [[String: String]]? = nil) {
            self.name = name
            self.selectedIndex = selectedIndex
            self.tabs = tabs
            self.ids = ids
            self.payloads = payloads
        }

        private enum CodingKeys: String, CodingKey {
            case name, selectedIndex, tabs, ids, payloads
        }

        /// Decodes an entry of either version; `ids` and `payloads` may be missing.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            selectedIndex = try container.decodeIfPresent(Int.self, forKey: .selectedIndex)
            tabs = try container.decode([String].self, forKey: .tabs)
            ids = try container.decodeIfPresent([TabID].self, forKey: .ids)
            payloads = try container.decodeIfPresent([[String: String]].self, forKey: .payloads)
        }

        /// Writes `selectedIndex` even when it is `nil`, as the export file has it.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            if let selectedIndex {
                try container.encode(selectedIndex, forKey: .selectedIndex)
            } else {
                try container.encodeNil(forKey: .selectedIndex)
            }
            try container.encode(tabs, forKey: .tabs)
            try container.encodeIfPresent(ids, forKey: .ids)
            try container.encodeIfPresent(payloads, forKey: .payloads)
        }
    }

    /// The value of the `format` key.
    public static let format = "tabstore"
    /// The value of the `version` key this library writes: 2, with tab ids and payloads.
    public static let version = 2
    /// The versions this library reads: 1 (titles only) and 2.
    public static let readableVersions = 1...2

    public var sets: [Entry]

    public init(sets: [Entry]) {
        self.sets = sets
    }

    private enum CodingKeys: String, CodingKey {
        case format, version, sets
    }

    /// - Throws: `DecodingError.dataCorrupted` when `format` or `version` is not this
    ///   library's; the coder's own errors for a missing key or a value of the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let format = try container.decode(String.self, forKey: .format)
        guard format == Self.format else {
            throw DecodingError.dataCorruptedError(forKey: .format, in: container, debugDescription: "\"format\" must be \"\(Self.format)\"")
        }
        let version = try container.decode(Int.self, forKey: .version)
        guard Self.readableVersions.contains(version) else {
            throw DecodingError.dataCorruptedError(forKey: .version, in: container, debugDescription: "\"version\" must be 1 or 2")
        }
        sets = try container.decode([Entry].self, forKey: .sets)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.format, forKey: .format)
        try container.encode(Self.version, forKey: .version)
        try container.encode(sets, forKey: .sets)
    }

    /// Checks the content, in order: each set's name, each of its titles (valid, none
    /// twice), its ids (one per tab, none twice in the document), its payloads (one per
    /// tab, each valid) and its selection, then that no set appears twice.
    ///
    /// - Throws: `TabStoreError.invalidDocument` naming the first problem and where it
    ///   is, as `sets[1].tabs[0]: invalid title ...`.
    public func validate() throws(TabStoreError) {
        var names = Set<ExactName>()
        var ids = Set<TabID>()
        for (index, entry) in sets.enumerated() {
            let place = "sets[\(index)]"
            if let problem = nameProblem(entry.name) {
                throw .invalidDocument(reason: "\(place): invalid set name \(quoted(entry.name)): \(problem)")
            }
            var seen = Set<ExactName>()
            for (tabIndex, title) in entry.tabs.enumerated() {
                if let problem = nameProblem(title) {
                    throw .invalidDocument(reason: "\(place).tabs[\(tabIndex)]: invalid title \(quoted(title)): \(problem)")
                }
                guard seen.insert(ExactName(title)).inserted else {
                    throw .invalidDocument(reason: "\(place).tabs[\(tabIndex)]: title \(quoted(title)) appears twice")
                }
            }
            if let entryIDs = entry.ids {
                guard entryIDs.count == entry.tabs.count else {
                    throw .invalidDocument(reason: "\(place).ids has \(entryIDs.count) ids for \(entry.tabs.count) tabs")
                }
                for (tabIndex, id) in entryIDs.enumerated() where !ids.insert(id).inserted || id == .unknown {
                    throw .invalidDocument(reason: "\(place).ids[\(tabIndex)]: id \(id) \(id == .unknown ? "is the nil UUID" : "appears twice")")
                }
            }
            if let payloads = entry.payloads {
                guard payloads.count == entry.tabs.count else {
                    throw .invalidDocument(reason: "\(place).payloads has \(payloads.count) payloads for \(entry.tabs.count) tabs")
                }
                for (tabIndex, payload) in payloads.enumerated() {
                    do { try validPayload(payload) } catch {
                        throw .invalidDocument(reason: "\(place).payloads[\(tabIndex)]: \(error)")
                    }
                }
            }
            guard entry.selectedIndex.map(entry.tabs.indices.contains) ?? entry.tabs.isEmpty else {
                let expected = entry.tabs.isEmpty ? "null (the set has no tabs)" : "an index in 0...\(entry.tabs.count - 1)"
                throw .invalidDocument(reason: "\(place).selectedIndex must be \(expected)")
            }
            guard names.insert(ExactName(entry.name)).inserted else {
                throw .invalidDocument(reason: "\(place): set \(quoted(entry.name)) appears twice")
            }
        }
    }
}

extension TabStore {
    /// The named sets (all sets, sorted by name, when `setNames` is empty) as a document.
    ///
    /// - Throws: `TabStoreError.setNotFound` for a name that is not there.
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
                    let set = try database.loadTabSet(named: name)
                    let payloads = set.tabs.map(\.payload)
                    entries.append(.init(
                        name: name, selectedIndex: set.selectedIndex, tabs: set.tabs.map(\.title), ids: set.tabs.map(\.id),
                        payloads: payloads.allSatisfy(\.isEmpty) ? nil : payloads
                    ))
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
    /// - Throws: `TabStoreError.setAlreadyExists`, `.invalidDocument`, or a database error.
    @discardableResult
    public func importDocument(
        _ document: TabStoreDocument, replace: Bool = false,
        progress: ((_ tabsWritten: Int, _ totalTabs: Int) -> Void)? = nil
    ) throws(TabStoreError) -> Int {
        let totalTabs = document.sets.reduce(0) { $0 + $1.tabs.count }
        var tabsDone = 0
        let tabWritten = progress.map { report in { tabsDone += 1; report(tabsDone, totalTabs) } }
        try document.validate()
        return try writing { database throws(TabStoreError) in
            var written = 0
            for (place, entry) in document.sets.enumerated() {
                if let existing = try database.setRecord(named: entry.name) {
                    guard replace else { throw .setAlreadyExists(set: entry.name) }
                    if try database.holds(entry, in: existing) {
                        for _ in entry.tabs { tabWritten?() }
                        continue
                    }
                    if entry.ids == nil {
                        // A version 1 entry: a title already there stays the same tab.
                        try database.replaceTabs(
                            of: existing, with: entry.tabs, selecting: entry.selectedIndex ?? 0, tabWritten: tabWritten
                        )
                    } else {
                        try database.deleteTabs(ofSet: existing.id)
                        try database.claim(entry, place: place)
                        try database.replaceTabs(
                            of: existing, with: entry.newTabs, selecting: entry.selectedIndex ?? 0, tabWritten: tabWritten
                        )
                    }
                } else {
                    try database.claim(entry, place: place)
                    try database.create(entry, tabWritten: tabWritten)
                }
                written += 1
            }
            return written
        }
    }
}

extension TabRecords {
    /// Whether `set` has exactly the entry's tabs (byte for byte), selection, and the ids
    /// and payloads the entry gives.
    func holds(_ entry: TabStoreDocument.Entry, in set: SetRecord) throws(TabStoreError) -> Bool {
        guard set.selected?.index == entry.selectedIndex else { return false }
        let tabs = try tabs(in: set)
        let payloads = entry.payloads ?? Array(repeating: [:], count: entry.tabs.count)
        return tabs.count == entry.tabs.count
            && zip(tabs, entry.tabs).allSatisfy { $0.title.utf8.elementsEqual($1.utf8) }
            && (entry.ids.map { $0 == tabs.map(\.uuid) } ?? true)
            && (entry.ids == nil || payloads == tabs.map(\.payload))
    }

    /// Makes the entry's ids free: one held by a tab of another set is refused; a
    /// removed tab holding one is forgotten (the tab is back under that id).
    func claim(_ entry: TabStoreDocument.Entry, place: Int) throws(TabStoreError) {
        guard let ids = entry.ids else { return }
        for (index, id) in ids.enumerated() {
            if let holder = try nameOfSet(holdingTab: id) {
                throw .invalidDocument(reason: "sets[\(place)].ids[\(index)]: id \(id) is the id of a tab in set \(quoted(holder))")
            }
            try deleteClosedTabs(withID: id)
        }
    }

    /// Creates the entry's set as `add` would, then selects its selected tab.
    func create(_ entry: TabStoreDocument.Entry, tabWritten: (() -> Void)? = nil) throws(TabStoreError) {
        for title in entry.tabs { try validTitle(title) }
        var set = try createSet(named: entry.name)
        try requireDistinct(entry.tabs, in: set, checkingStored: false)
        let ids = try insertTabs(entry.newTabs, at: 0, in: &set, count: 0, tabWritten: tabWritten)
        try commitChange(to: set, selecting: ids.first, event: .added(titles: entry.tabs, index: 0))
        guard let selectedIndex = entry.selectedIndex, selectedIndex > 0 else { return }
        let tabs = try tabs(in: set)
        let updates = [
            TabUpdate(index: 0, tab: tabs[0].eventTab(selected: false)),
            TabUpdate(index: selectedIndex, tab: tabs[selectedIndex].eventTab(selected: true)),
        ]
        let added = SetRecord(id: set.id, name: set.name, revision: set.revision + 1, base: set.base, selected: nil)
        try commitChange(to: added, selecting: ids[selectedIndex], event: .selectionChanged(updates))
    }
}

extension TabStoreDocument.Entry {
    /// The tabs to insert: with the entry's ids and payloads, or fresh ids.
    var newTabs: [NewTab] {
        tabs.enumerated().map { index, title in
            NewTab(title: title, uuid: ids?[index] ?? TabID(), payload: payloads?[index] ?? [:])
        }
    }
}
