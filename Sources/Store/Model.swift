/// One tab of a tab bar: its title and whether it is the selected one.
///
/// This is the documents' `HeaderItemType { title; isSelected }`.
public struct Tab: Sendable, Hashable {
    public let title: String
    public let isSelected: Bool

    public init(title: String, isSelected: Bool) {
        self.title = title
        self.isSelected = isSelected
    }
}

/// A named, ordered list of tabs with at most one selected, as stored.
public struct TabSet: Sendable, Hashable {
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

    /// The documents' `tabs.firstIndex(where: { $0.isSelected }) ?? 0`.
    public var lastSelectedIndex: Int { selectedIndex ?? 0 }

    /// The selected tab, or `nil` when the set is empty.
    public var selectedTab: Tab? { selectedIndex.map { tabs[$0] } }
}

/// What a call that edits a set returns: the set as it now stands and what changed.
///
/// It reads like the set itself: `try store.add(["Home"], to: "main").tabs`.
@dynamicMemberLookup
public struct TabSetEdit: Sendable, Hashable {
    /// The set after the call.
    public let set: TabSet
    /// The change, as observers see it (with old indices and titles); `nil` when the
    /// call changed nothing (a move to the same index, a rename to the same title).
    public let event: TabEvent?

    public init(set: TabSet, event: TabEvent?) {
        self.set = set
        self.event = event
    }

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
/// ```
public enum TabRef: Sendable, Hashable {
    /// A 0-based position; a negative one counts from the end, so `-1` is the last tab.
    case index(Int)
    /// The exact title (compared byte for byte, as stored).
    case title(String)
    /// A tab as a person typed it (a command line's `<tab>`), read inside the write:
    /// an integer (`-1`, `007`) is an index and anything else an exact title. An integer
    /// that is also a tab's title is refused (`.ambiguousTab`) rather than guessed, and one
    /// too large for `Int` is out of range. With `asIndex`, the text is only an index.
    case typed(String, asIndex: Bool = false)
}

/// A tab at its index: the documents' `(index, item)` pair told to the view to reload.
public struct TabUpdate: Sendable, Hashable {
    public let index: Int
    public let tab: Tab

    public init(index: Int, tab: Tab) {
        self.index = index
        self.tab = tab
    }
}

/// What a `select` did.
public struct SelectionChange: Sendable, Hashable {
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

    /// The selected tab was selected again: an event, but nothing changed.
    public var isReselection: Bool { updates.isEmpty }
}

/// One line of `list`: a set without its tabs.
public struct TabSetSummary: Sendable, Hashable {
    public let name: String
    public let tabCount: Int
    /// `nil` when the set is empty.
    public let selectedIndex: Int?
    public let selectedTitle: String?
    public let revision: Int
}

/// Facts about an open store, for `tabstore info`.
public struct StoreInfo: Sendable, Hashable {
    public let path: String
    public let schemaVersion: Int
    public let setCount: Int
    /// `PRAGMA quick_check`'s answer: `"ok"` for a sound file.
    public let quickCheck: String
}
