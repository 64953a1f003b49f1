/// The export format: every (or some) set with its tabs and selection, as JSON.
///
/// ```json
/// {"format": "tabstore", "version": 1,
///  "sets": [{"name": "main", "selectedIndex": 0, "tabs": ["Home", "Reviews"]}]}
/// ```
/// `selectedIndex` is `null` exactly when `tabs` is empty.
public struct TabStoreDocument: Sendable, Hashable {
    public struct Entry: Sendable, Hashable {
        public var name: String
        public var selectedIndex: Int?
        public var tabs: [String]

        public init(name: String, selectedIndex: Int?, tabs: [String]) {
            self.name = name
            self.selectedIndex = selectedIndex
            self.tabs = tabs
        }
    }

    public static let format = "tabstore"
    public static let version = 1

    public var sets: [Entry]

    public init(sets: [Entry]) {
        self.sets = sets
    }

    /// Reads a document, checking all of it: the format, every name and title, and
    /// every selection.
    ///
    /// - Throws: `TabStoreError.invalidDocument` naming the first problem and where it is.
    public init(json bytes: [UInt8]) throws(TabStoreError) {
        let root: JSONValue
        do {
            // Editors on some systems start a UTF-8 file with a byte order mark.
            let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
            root = try JSONValue.parse(bytes.starts(with: byteOrderMark) ? Array(bytes.dropFirst(3)) : bytes)
        } catch {
            throw .invalidDocument(reason: "not valid JSON at \(error)")
        }
        let reader = DocumentReader()
        let members = try reader.object(root, at: "the document", keys: ["format", "version", "sets"])
        guard case .string(Self.format)? = members["format"] else {
            throw .invalidDocument(reason: "\"format\" must be \"\(Self.format)\"")
        }
        guard case .int(Self.version)? = members["version"] else {
            throw .invalidDocument(reason: "\"version\" must be \(Self.version)")
        }
        guard case let .array(sets)? = members["sets"] else {
            throw .invalidDocument(reason: "\"sets\" must be an array")
        }
        var entries: [Entry] = []
        var names = Set<ExactName>()
        for (index, value) in sets.enumerated() {
            let entry = try reader.entry(value, at: "sets[\(index)]")
            guard names.insert(ExactName(entry.name)).inserted else {
                throw .invalidDocument(reason: "sets[\(index)]: set \(quoted(entry.name)) appears twice")
            }
            entries.append(entry)
        }
        self.sets = entries
    }

    /// The document as JSON, pretty-printed unless told otherwise, without a final newline.
    public func json(pretty: Bool = true) -> String {
        let sets = sets.map { entry -> JSONValue in
            .object([
                ("name", .string(entry.name)),
                ("selectedIndex", entry.selectedIndex.map(JSONValue.int) ?? .null),
                ("tabs", .array(entry.tabs.map(JSONValue.string))),
            ])
        }
        let document: JSONValue = .object([
            ("format", .string(Self.format)),
            ("version", .int(Self.version)),
            ("sets", .array(sets)),
        ])
        return document.rendered(pretty: pretty)
    }
}

/// Reads the parts of an import document, naming where a problem is.
private struct DocumentReader {
    /// The members of an object that has exactly the allowed `keys` (no unknown, none twice).
    func object(_ value: JSONValue, at place: String, keys: [String]) throws(TabStoreError) -> [String: JSONValue] {
        guard case let .object(members) = value else {
            throw .invalidDocument(reason: "\(place) must be an object, not \(value.typeName)")
        }
        var result: [String: JSONValue] = [:]
        for (key, member) in members {
            guard keys.contains(key) else { throw .invalidDocument(reason: "\(place): unknown key \(quoted(key))") }
            guard result.updateValue(member, forKey: key) == nil else {
                throw .invalidDocument(reason: "\(place): key \(quoted(key)) appears twice")
            }
        }
        for key in keys where result[key] == nil {
            throw .invalidDocument(reason: "\(place): missing \(quoted(key))")
        }
        return result
    }

    func entry(_ value: JSONValue, at place: String) throws(TabStoreError) -> TabStoreDocument.Entry {
        let members = try object(value, at: place, keys: ["name", "selectedIndex", "tabs"])
        guard case let .string(name)? = members["name"] else {
            throw .invalidDocument(reason: "\(place).name must be a string")
        }
        if let problem = nameProblem(name) {
            throw .invalidDocument(reason: "\(place): invalid set name \(quoted(name)): \(problem)")
        }
        guard case let .array(tabValues)? = members["tabs"] else {
            throw .invalidDocument(reason: "\(place).tabs must be an array of titles")
        }
        var tabs: [String] = []
        var seen = Set<ExactName>()
        for (index, tabValue) in tabValues.enumerated() {
            guard case let .string(title) = tabValue else {
                throw .invalidDocument(reason: "\(place).tabs[\(index)] must be a string, not \(tabValue.typeName)")
            }
            if let problem = nameProblem(title) {
                throw .invalidDocument(reason: "\(place).tabs[\(index)]: invalid title \(quoted(title)): \(problem)")
            }
            guard seen.insert(ExactName(title)).inserted else {
                throw .invalidDocument(reason: "\(place).tabs[\(index)]: title \(quoted(title)) appears twice")
            }
            tabs.append(title)
        }
        let selectedIndex: Int?
        switch members["selectedIndex"] {
        case .null? where tabs.isEmpty:
            selectedIndex = nil
        case let .int(index)? where tabs.indices.contains(index):
            selectedIndex = index
        default:
            let expected = tabs.isEmpty ? "null (the set has no tabs)" : "an index in 0...\(tabs.count - 1)"
            throw .invalidDocument(reason: "\(place).selectedIndex must be \(expected)")
        }
        return TabStoreDocument.Entry(name: name, selectedIndex: selectedIndex, tabs: tabs)
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
        return try writing { database throws(TabStoreError) in
            var written = 0
            for entry in document.sets {
                try validSetName(entry.name)
                guard entry.selectedIndex.map(entry.tabs.indices.contains) ?? entry.tabs.isEmpty else {
                    throw .invalidDocument(reason: "set \(quoted(entry.name)): selectedIndex does not name one of its tabs")
                }
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
