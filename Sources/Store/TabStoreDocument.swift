/// The export and import document: every (or some) set with its tabs and selection.
///
/// A plain value that conforms to `Codable`, so an app stores it with the coder it
/// already uses (`JSONEncoder`, `PropertyListEncoder`, ...). Its coded form has the keys
/// of the `tabstore export` file, which the CLI reads and writes:
///
/// ```json
/// {"format": "tabstore", "version": 1,
///  "sets": [{"name": "main", "selectedIndex": 0, "tabs": ["Home", "Reviews"]}]}
/// ```
/// `selectedIndex` is `null` exactly when `tabs` is empty. Decoding checks the `format`
/// and `version` header; ``validate()`` (which ``TabStore/importDocument(_:replace:progress:)``
/// runs first) checks the content.
public struct TabStoreDocument: Sendable, Hashable, Codable {
    /// One set: its name, its tabs in order and the index of its selected tab.
    public struct Entry: Sendable, Hashable, Codable {
        public var name: String
        public var selectedIndex: Int?
        public var tabs: [String]

        public init(name: String, selectedIndex: Int?, tabs: [String]) {
            self.name = name
            self.selectedIndex = selectedIndex
            self.tabs = tabs
        }

        private enum CodingKeys: String, CodingKey {
            case name, selectedIndex, tabs
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            selectedIndex = try container.decodeIfPresent(Int.self, forKey: .selectedIndex)
            tabs = try container.decode([String].self, forKey: .tabs)
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
        }
    }

    /// The value of the `format` key.
    public static let format = "tabstore"
    /// The value of the `version` key: the only one this library reads and writes.
    public static let version = 1

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
        guard version == Self.version else {
            throw DecodingError.dataCorruptedError(forKey: .version, in: container, debugDescription: "\"version\" must be \(Self.version)")
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
    /// twice) and its selection, then that no set appears twice.
    ///
    /// - Throws: `TabStoreError.invalidDocument` naming the first problem and where it
    ///   is, as `sets[1].tabs[0]: invalid title ...`.
    public func validate() throws(TabStoreError) {
        var names = Set<ExactName>()
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
        try withDatabase { database throws(TabStoreError) in
            try database.readTransaction { () throws(TabStoreError) in
                var names = setNames
                if names.isEmpty {
                    try database.forEachRow("SELECT name FROM tab_set ORDER BY name") { names.append($0.text(0)) }
                }
                var entries: [TabStoreDocument.Entry] = []
                // Each set once, however often it was asked for: import refuses repeats.
                var seen = Set<ExactName>()
                for name in names where seen.insert(ExactName(name)).inserted {
                    let set = try database.loadTabSet(named: name)
                    entries.append(.init(name: name, selectedIndex: set.selectedIndex, tabs: set.tabs.map(\.title)))
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
            for entry in document.sets {
                if let existing = try database.setRecord(named: entry.name) {
                    guard replace else { throw .setAlreadyExists(set: entry.name) }
                    if try database.holds(entry, in: existing) {
                        for _ in entry.tabs { tabWritten?() }
                        continue
                    }
                    try database.replaceTabs(
                        of: existing, with: entry.tabs, selecting: entry.selectedIndex ?? 0, tabWritten: tabWritten
                    )
                } else {
                    try database.create(entry, tabWritten: tabWritten)
                }
                written += 1
            }
            return written
        }
    }
}

extension Database {
    /// Whether `set` has exactly the entry's tabs (byte for byte) and selection.
    func holds(_ entry: TabStoreDocument.Entry, in set: SetRecord) throws(TabStoreError) -> Bool {
        guard set.selected?.index == entry.selectedIndex else { return false }
        let tabs = try tabs(in: set)
        return tabs.count == entry.tabs.count
            && zip(tabs, entry.tabs).allSatisfy { $0.title.utf8.elementsEqual($1.utf8) }
    }

    /// Creates the entry's set as `add` would, then selects its selected tab.
    func create(_ entry: TabStoreDocument.Entry, tabWritten: (() -> Void)? = nil) throws(TabStoreError) {
        for title in entry.tabs { try validTitle(title) }
        var set = try createSet(named: entry.name)
        try requireDistinct(entry.tabs, in: set, checkingStored: false)
        let ids = try insertTabs(entry.tabs, at: 0, in: &set, count: 0, tabWritten: tabWritten)
        try commitChange(to: set, selectedTabID: ids.first, event: .added(titles: entry.tabs, index: 0))
        guard let selectedIndex = entry.selectedIndex, selectedIndex > 0 else { return }
        let updates = [
            TabUpdate(index: 0, tab: Tab(title: entry.tabs[0], isSelected: false)),
            TabUpdate(index: selectedIndex, tab: Tab(title: entry.tabs[selectedIndex], isSelected: true)),
        ]
        let added = SetRecord(id: set.id, name: set.name, revision: set.revision + 1, base: set.base, selected: nil)
        try commitChange(to: added, selectedTabID: ids[selectedIndex], event: .selectionChanged(updates))
    }
}
