/// One tab of a tab bar: its stable id, title, whether it is the selected one, and the
/// app's own data for it.
///
/// It holds what a tab bar's item holds, a title and whether it is selected (<doc:SelectionRules>).
/// `id` identifies the tab (SwiftUI's `ForEach`, diffing); equality compares every field.
public struct Tab: Sendable, Hashable, Codable, Identifiable {
    /// Never changes, whatever happens to the tab (see ``TabID``).
    public let id: TabID
    public let title: String
    /// Set only by the store (a select flips it in place, with no copy of the tab).
    public internal(set) var isSelected: Bool
    /// What the app keeps for this tab (a route, an icon name, a badge): at most
    /// ``TabStore/payloadLimit`` bytes of keys and values. Always empty in a ``TabEvent``:
    /// read the set (an edit's `set`) for it.
    public let payload: [String: String]

    /// A tab value, for fakes and previews; the store makes its own with ``TabStore/add(_:to:at:payload:ifRevision:creatingSet:)-61dyf``.
    public init(id: TabID = TabID(), title: String, isSelected: Bool, payload: [String: String] = [:]) {
        self.id = id
        self.title = title
        self.isSelected = isSelected
        self.payload = payload
    }

    /// Equal when the stored text is: the title and the payload's keys and values compare
    /// byte for byte, as the store keeps them (Swift's `==` on strings equates canonically
    /// equivalent ones, and a view would not redraw a rename from "Café" to "Cafe\u{301}").
    public static func == (lhs: Tab, rhs: Tab) -> Bool {
        lhs.id == rhs.id && lhs.isSelected == rhs.isSelected && sameBytes(lhs.title, rhs.title)
            && samePayload(lhs.payload, rhs.payload)
    }
}

/// A tab to add: its title and payload; it gets a fresh id.
///
/// For example:
/// ```swift
/// try store.add([NewTab("Home", payload: ["route": "/home"]), NewTab("Reviews", payload: ["route": "/reviews"])], to: "main", creatingSet: true)
/// ```
public struct NewTab: Sendable, Hashable {
    public let title: String
    /// At most ``TabStore/payloadLimit`` bytes of keys and values.
    public var payload: [String: String]
    /// The id the tab gets: fresh, or a removed or imported tab's own.
    package var uuid: TabID

    public init(_ title: String, payload: [String: String] = [:]) {
        self.init(title: title, uuid: TabID(), payload: payload)
    }

    package init(title: String, uuid: TabID = TabID(), payload: [String: String] = [:]) {
        self.title = title
        self.uuid = uuid
        self.payload = payload
    }
}

/// A named, ordered list of tabs with at most one selected, as stored.
public struct TabSet: Sendable, Hashable, Codable {
    public let name: String
    public let tabs: [Tab]
    /// Grows by at least one with every change to the set; never goes back.
    public let revision: Int

    public init(name: String, tabs: [Tab], revision: Int) {
        self.name = name
        self.tabs = tabs
        self.revision = revision
    }

    /// The index of the selected tab, or `nil` when the set is empty.
    public var selectedIndex: Int? { tabs.firstIndex(where: \.isSelected) }

    /// `tabs.firstIndex(where: { $0.isSelected }) ?? 0`, as <doc:SelectionRules> has it.
    public var lastSelectedIndex: Int { selectedIndex ?? 0 }

    /// The selected tab, or `nil` when the set is empty.
    public var selectedTab: Tab? { selectedIndex.map { tabs[$0] } }

    /// The index of the tab with this id, or `nil` when none has it.
    public func index(of id: TabID) -> Int? { tabs.firstIndex { $0.id == id } }
}

/// What a call that edits a set returns: the set as it now stands and what changed.
///
/// It reads like the set itself: `try store.add(["Home"], to: "main").tabs`.
@dynamicMemberLookup
public struct TabSetEdit: Sendable, Hashable, Codable {
    /// The set after the call.
    public let set: TabSet
    /// The change, as observers see it (with old indices and titles); `nil` when the
    /// call changed nothing (a move to the same index, a rename to the same title).
    public let event: TabEvent?

    public init(set: TabSet, event: TabEvent?) {
        self.set = set
        self.event = event
    }

    /// Reads a property of ``set``: `edit.tabs` is `edit.set.tabs`.
    public subscript<Value>(dynamicMember keyPath: KeyPath<TabSet, Value>) -> Value {
        self.set[keyPath: keyPath]
    }
}

/// Names one tab of a set.
///
/// For example:
/// ```swift
/// try store.select(.index(-1), in: "main")      // the last tab
/// try store.select(.title("Reviews"), in: "main")
/// try store.select(.id(tab.id), in: "main")
/// try store.select(2, in: "main")              // a literal integer is an index,
/// try store.select("Reviews", in: "main")      // a literal string a title
/// ```
public enum TabRef: Sendable, Hashable, Codable, ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    /// A 0-based position; a negative one counts from the end, so `-1` is the last tab.
    case index(Int)
    /// The exact title (compared byte for byte, as stored).
    case title(String)
    /// A tab as a person typed it (a command line's `<tab>`), read inside the write:
    /// an integer (`-1`, `007`) is an index and anything else an exact title. An integer
    /// that is also a tab's title is refused (`.ambiguousTab`) rather than guessed, and one
    /// too large for `Int` is out of range. With `asIndex`, the text is only an index.
    case userInput(String, asIndex: Bool = false)
    /// The tab with this id, wherever it stands.
    case id(TabID)

    /// `2` is `.index(2)`.
    public init(integerLiteral value: Int) { self = .index(value) }

    /// `"Home"` is `.title("Home")`.
    public init(stringLiteral value: String) { self = .title(value) }

    /// Whether ``userInput(_:asIndex:)`` reads `text` as an index: an optional `-` and one or
    /// more ASCII digits (`-1`, `007`), whether or not it fits `Int`. A command line that
    /// takes `-1` as a value, not an option, asks this.
    package static func readsAsIndex(_ text: String) -> Bool {
        let digits = text.utf8.first == UInt8(ascii: "-") ? text.utf8.dropFirst() : text.utf8[...]
        return !digits.isEmpty && digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}

/// A tab at its index: the `(index, item)` pair told to the view to reload (<doc:SelectionRules>).
/// `tab.id` says which tab it is (``TabID/unknown`` in journal rows from before ids).
public struct TabUpdate: Sendable, Hashable, Codable {
    public let index: Int
    public let tab: Tab

    public init(index: Int, tab: Tab) {
        self.index = index
        self.tab = tab
    }
}

/// What a `select` did, and the set as it now stands.
public struct SelectionChange: Sendable, Hashable, Codable {
    public let setName: String
    /// The index that was selected before the call.
    public let previousIndex: Int
    /// The index selected now.
    public let selectedIndex: Int
    /// The selected tab now.
    public let selectedTab: Tab
    /// The two changed tabs, the old selection first then the new one; empty on a reselection.
    public let updates: [TabUpdate]
    /// The set's revision after the call (unchanged on a reselection).
    public let revision: Int
    /// The set after the call, read in the same transaction: apply this one value.
    public let set: TabSet

    /// A selection change, for fakes and previews.
    public init(
        setName: String, previousIndex: Int, selectedIndex: Int, selectedTab: Tab, updates: [TabUpdate],
        revision: Int, set: TabSet
    ) {
        self.setName = setName
        self.previousIndex = previousIndex
        self.selectedIndex = selectedIndex
        self.selectedTab = selectedTab
        self.updates = updates
        self.revision = revision
        self.set = set
    }

    /// The selected tab was selected again: an event, but nothing changed.
    public var isReselection: Bool { updates.isEmpty }
}

/// One line of `list`: a set without its tabs.
public struct TabSetSummary: Sendable, Hashable, Codable {
    public let name: String
    public let tabCount: Int
    /// `nil` when the set is empty.
    public let selectedIndex: Int?
    public let selectedTitle: String?
    public let revision: Int

    /// A summary, for fakes and previews.
    public init(name: String, tabCount: Int, selectedIndex: Int?, selectedTitle: String?, revision: Int) {
        self.name = name
        self.tabCount = tabCount
        self.selectedIndex = selectedIndex
        self.selectedTitle = selectedTitle
        self.revision = revision
    }
}

/// Facts about an open store, for `tabstore info`.
public struct StoreInfo: Sendable, Hashable, Codable {
    /// The file's path (`:memory:` in memory), or the server as
    /// `postgresql://user@host:port/database` (never with a password).
    public let location: String
    public let schemaVersion: Int
    public let setCount: Int
    /// What the database's own check of its storage found: SQLite's `PRAGMA integrity_check`
    /// on a file (`"ok"` when sound); `"ok"` on a server, whose storage is the server's.
    public let storageCheck: String
    /// One line per broken tab rule (positions not contiguous, a selection that is not one
    /// of the set's tabs, a revision that is not its newest change's), checked the same way
    /// on every backend; empty for a sound database.
    public let ruleProblems: [String]

    /// Store facts, for fakes and previews.
    public init(location: String, schemaVersion: Int, setCount: Int, storageCheck: String = "ok", ruleProblems: [String] = []) {
        self.location = location
        self.schemaVersion = schemaVersion
        self.setCount = setCount
        self.storageCheck = storageCheck
        self.ruleProblems = ruleProblems
    }

    /// `"ok"` when both checks found nothing, else what they found, joined by `"; "`.
    public var consistencyCheck: String {
        let findings = (storageCheck == "ok" ? [] : [storageCheck]) + ruleProblems
        return findings.isEmpty ? "ok" : findings.joined(separator: "; ")
    }

    /// Whether the storage itself is damaged (a corrupt file), not only rows that break rules.
    public var isDamaged: Bool { storageCheck != "ok" }
}
