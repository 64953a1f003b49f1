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
/// ``TabStore/importDocument(_:replace:progress:)-9x86t`` runs first) checks the content.
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

        /// A stored set's entry, as ``TabStore/export(_:)-85a9y`` writes it: with its tabs' ids,
        /// and their payloads unless no tab has one.
        public init(_ set: TabSet) {
            let payloads = set.tabs.map(\.payload)
            self.init(
                name: set.name, selectedIndex: set.selectedIndex, tabs: set.tabs.map(\.title), ids: set.tabs.map(\.id),
                payloads: payloads.allSatisfy(\.isEmpty) ? nil : payloads
            )
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
    /// - Throws: `TabStoreError.Code.invalidDocument` naming the first problem and where it
    ///   is, as `sets[1].tabs[0]: invalid title ...`.
    public func validate() throws(TabStoreError) {
        var names = Set<ExactName>()
        var ids = Set<TabID>()
        for (index, entry) in sets.enumerated() {
            let place = "sets[\(index)]"
            if let problem = nameProblem(entry.name) {
                throw TabStoreError(.invalidDocument(reason: "\(place): invalid set name \(quoted(entry.name)): \(problem)"))
            }
            var seen = Set<ExactName>()
            for (tabIndex, title) in entry.tabs.enumerated() {
                if let problem = nameProblem(title) {
                    throw TabStoreError(.invalidDocument(reason: "\(place).tabs[\(tabIndex)]: invalid title \(quoted(title)): \(problem)"))
                }
                guard seen.insert(ExactName(title)).inserted else {
                    throw TabStoreError(.invalidDocument(reason: "\(place).tabs[\(tabIndex)]: title \(quoted(title)) appears twice"))
                }
            }
            if let entryIDs = entry.ids {
                guard entryIDs.count == entry.tabs.count else {
                    throw TabStoreError(.invalidDocument(reason: "\(place).ids has \(entryIDs.count) ids for \(entry.tabs.count) tabs"))
                }
                for (tabIndex, id) in entryIDs.enumerated() where !ids.insert(id).inserted || id == .unknown {
                    throw TabStoreError(.invalidDocument(reason: "\(place).ids[\(tabIndex)]: id \(id) \(id == .unknown ? "is the nil UUID" : "appears twice")"))
                }
            }
            if let payloads = entry.payloads {
                guard payloads.count == entry.tabs.count else {
                    throw TabStoreError(.invalidDocument(reason: "\(place).payloads has \(payloads.count) payloads for \(entry.tabs.count) tabs"))
                }
                for (tabIndex, payload) in payloads.enumerated() {
                    do { try validPayload(payload) } catch {
                        throw TabStoreError(.invalidDocument(reason: "\(place).payloads[\(tabIndex)]: \(error)"))
                    }
                }
            }
            guard entry.selectedIndex.map(entry.tabs.indices.contains) ?? entry.tabs.isEmpty else {
                let expected = entry.tabs.isEmpty ? "null (the set has no tabs)" : "an index in 0...\(entry.tabs.count - 1)"
                throw TabStoreError(.invalidDocument(reason: "\(place).selectedIndex must be \(expected)"))
            }
            guard names.insert(ExactName(entry.name)).inserted else {
                throw TabStoreError(.invalidDocument(reason: "\(place): set \(quoted(entry.name)) appears twice"))
            }
        }
    }
}
