/// The journal's columns (`migrations/0006_typed_journal.sql` and later steps), declared
/// once for every backend: the order both read and write them in after `id`, which a
/// kind fills, how lists are packed into one text column.
package enum JournalColumn: Int, CaseIterable, Sendable {
    case setName, revision, kind, at, setID, tabIndex, fromIndex, toIndex, title, newTitle, tabCount, selected, titles, indices, tabIDs
    /// The id a client made for the write (one per try of a transaction), which it looks up
    /// after a COMMIT lost in flight; NULL where no client needs that (a file).
    case changeID

    package var name: String {
        switch self {
        case .setName: "set_name"
        case .revision: "revision"
        case .kind: "kind"
        case .at: "at"
        case .setID: "set_id"
        case .tabIndex: "tab_index"
        case .fromIndex: "from_index"
        case .toIndex: "to_index"
        case .title: "title"
        case .newTitle: "new_title"
        case .tabCount: "tab_count"
        case .selected: "selected"
        case .titles: "titles"
        case .indices: "indices"
        case .tabIDs: "tab_ids"
        case .changeID: "change_id"
        }
    }

    /// Whether the column holds integers (else text).
    package var holdsIntegers: Bool {
        switch self {
        case .revision, .at, .setID, .tabIndex, .fromIndex, .toIndex, .tabCount, .selected: true
        case .setName, .kind, .title, .newTitle, .titles, .indices, .tabIDs, .changeID: false
        }
    }

    /// What reads select: `id`, then every column a change is made of (a write's id is
    /// only looked up, and a file opened without migrating may not have it).
    package static let selectList = "id, " + allCases.filter { $0 != .changeID }.map(\.name).joined(separator: ", ")

    /// Every column's name, in order, joined by commas.
    package static let names = allCases.map(\.name).joined(separator: ", ")
}

/// A journal cell: what a backend binds or reads (NULL is `nil`).
package enum JournalValue: Sendable, Equatable {
    case int(Int)
    case text(String)

    package var int: Int? { if case let .int(value) = self { value } else { nil } }
    package var text: String? { if case let .text(value) = self { value } else { nil } }
}

/// How big the journal may grow, for every backend.
package enum JournalLimit {
    /// How many changes the journal keeps in all; older ones are dropped.
    package static let changes = 10_000
    /// The trim runs when a new row's id is a multiple of this: the journal may run 1%
    /// over its limit, and a write seldom pays for the delete.
    package static let trimEvery = 100
}

extension JournalEntry {
    /// The journal row's cells, in `JournalColumn` order (nil: NULL): what every backend
    /// writes. `setID` is the set's row id, which a backend knows once the set exists, and
    /// `changeID` the write's id, where the backend gives one.
    package func cells(setID: Int?, changeID: String? = nil) -> [JournalValue?] {
        let row = JournalRow(event)
        return JournalColumn.allCases.map { column in
            switch column {
            case .setName: .text(setName)
            case .revision: .int(revision)
            case .kind: .text(event.kind.rawValue)
            case .at: .int(timestamp)
            case .setID: setID.map(JournalValue.int)
            case .changeID: changeID.map(JournalValue.text)
            default: row.cell(column)
            }
        }
    }
}

extension JournalRow {
    /// The columns `event` fills, every other event column NULL: what every backend writes
    /// for it, and what `event(_:)` reads back.
    package init(_ event: TabEvent) {
        switch event {
        case let .added(titles, index):
            self.init(tabIndex: index, titles: titles)
        case let .removed(tabs):
            // At most one removed tab was the selected one: a set has one selection.
            self.init(
                tabIndex: tabs.first { $0.tab.isSelected }?.index, titles: tabs.map(\.tab.title),
                indices: tabs.map(\.index), tabIDs: tabs.map(\.tab.id)
            )
        case let .moved(title, from, to):
            self.init(fromIndex: from, toIndex: to, title: title)
        case let .renamed(index, from, to):
            self.init(tabIndex: index, title: from, newTitle: to)
        case let .selectionChanged(updates):
            // The old tab deselected, then the new one selected.
            let old = updates.first { !$0.tab.isSelected }
            let new = updates.first { $0.tab.isSelected }
            self.init(
                fromIndex: old?.index, toIndex: new?.index, title: old?.tab.title, newTitle: new?.tab.title,
                tabIDs: [old?.tab.id, new?.tab.id]
            )
        case let .reselected(tab), let .reopened(tab), let .payloadChanged(tab):
            self.init(tabIndex: tab.index, title: tab.tab.title, selected: tab.tab.isSelected, tabIDs: [tab.tab.id])
        case let .replaced(count):
            self.init(tabCount: count)
        case let .setRenamed(from, to):
            self.init(title: from, newTitle: to)
        case .setRemoved:
            self.init()
        }
    }

    /// The cell of one of the event's columns (nil: NULL, and for the columns that are not the event's).
    package func cell(_ column: JournalColumn) -> JournalValue? {
        switch column {
        case .tabIndex: tabIndex.map(JournalValue.int)
        case .fromIndex: fromIndex.map(JournalValue.int)
        case .toIndex: toIndex.map(JournalValue.int)
        case .title: title.map(JournalValue.text)
        case .newTitle: newTitle.map(JournalValue.text)
        case .tabCount: tabCount.map(JournalValue.int)
        case .selected: selected.map { .int($0 ? 1 : 0) }
        case .titles: titles.map { .text(Self.pack($0)) }
        case .indices: indices.map { .text(Self.pack($0)) }
        case .tabIDs: tabIDs.map { .text(Self.pack($0)) }
        case .setName, .revision, .kind, .at, .setID, .changeID: nil
        }
    }
}

extension JournalRow {
    /// A change read back: `cell` gives each column's value; `nil` for a row this binary
    /// cannot read (skipped, not fatal).
    package static func change(_ cell: (JournalColumn) -> JournalValue?) -> TabChange? {
        guard let kindText = cell(.kind)?.text, let kind = TabEvent.Kind(rawValue: kindText),
              let setName = cell(.setName)?.text, let revision = cell(.revision)?.int, let at = cell(.at)?.int
        else { return nil }
        let row = JournalRow(
            tabIndex: cell(.tabIndex)?.int, fromIndex: cell(.fromIndex)?.int, toIndex: cell(.toIndex)?.int,
            title: cell(.title)?.text, newTitle: cell(.newTitle)?.text, tabCount: cell(.tabCount)?.int,
            selected: cell(.selected)?.int.map { $0 != 0 },
            titles: cell(.titles)?.text.map(unpackTitles),
            indices: cell(.indices)?.text.flatMap(unpackIndices),
            tabIDs: cell(.tabIDs)?.text.map(unpackTabIDs)
        )
        guard let event = row.event(kind) else { return nil }
        return TabChange(setName: setName, revision: revision, event: event, timestamp: at)
    }
}

/// The typed columns of one journal row as read back.
package struct JournalRow: Equatable {
    package var tabIndex: Int?
    package var fromIndex: Int?
    package var toIndex: Int?
    package var title: String?
    package var newTitle: String?
    package var tabCount: Int?
    package var selected: Bool?
    package var titles: [String]?
    package var indices: [Int]?
    /// `nil` for a row from before tab ids (schema 6); an entry is `nil` where the row has none.
    package var tabIDs: [TabID?]?

    package init(
        tabIndex: Int? = nil, fromIndex: Int? = nil, toIndex: Int? = nil, title: String? = nil,
        newTitle: String? = nil, tabCount: Int? = nil, selected: Bool? = nil, titles: [String]? = nil,
        indices: [Int]? = nil, tabIDs: [TabID?]? = nil
    ) {
        self.tabIndex = tabIndex
        self.fromIndex = fromIndex
        self.toIndex = toIndex
        self.title = title
        self.newTitle = newTitle
        self.tabCount = tabCount
        self.selected = selected
        self.titles = titles
        self.indices = indices
        self.tabIDs = tabIDs
    }

    /// The id of the event's tab at `offset`; `TabID.unknown` when the row has none.
    package func tabID(_ offset: Int) -> TabID {
        guard let tabIDs, tabIDs.indices.contains(offset) else { return .unknown }
        return tabIDs[offset] ?? .unknown
    }

    /// The event of a row of `kind`, or `nil` when a column its kind needs is missing.
    package func event(_ kind: TabEvent.Kind) -> TabEvent? {
        switch kind {
        case .added:
            guard let tabIndex, let titles else { return nil }
            return .added(titles: titles, index: tabIndex)
        case .removed:
            guard let titles, let indices, titles.count == indices.count else { return nil }
            return .removed(zip(indices, titles).enumerated().map { offset, tab in
                TabUpdate(index: tab.0, tab: Tab(id: tabID(offset), title: tab.1, isSelected: tab.0 == tabIndex))
            })
        case .moved:
            guard let title, let fromIndex, let toIndex else { return nil }
            return .moved(title: title, from: fromIndex, to: toIndex)
        case .renamed:
            guard let tabIndex, let title, let newTitle else { return nil }
            return .renamed(index: tabIndex, from: title, to: newTitle)
        case .selectionChanged:
            guard let toIndex, let newTitle else { return nil }
            let new = TabUpdate(index: toIndex, tab: Tab(id: tabID(1), title: newTitle, isSelected: true))
            guard let fromIndex, let title else { return .selectionChanged([new]) }
            return .selectionChanged([TabUpdate(index: fromIndex, tab: Tab(id: tabID(0), title: title, isSelected: false)), new])
        case .reselected, .reopened, .payloadChanged:
            guard let tabIndex, let title, let selected else { return nil }
            let tab = TabUpdate(index: tabIndex, tab: Tab(id: tabID(0), title: title, isSelected: selected))
            switch kind {
            case .reselected: return .reselected(tab)
            case .reopened: return .reopened(tab)
            default: return .payloadChanged(tab)
            }
        case .replaced:
            guard let tabCount else { return nil }
            return .replaced(tabCount: tabCount)
        case .setRenamed:
            guard let title, let newTitle else { return nil }
            return .setRenamed(from: title, to: newTitle)
        case .setRemoved:
            return .setRemoved
        }
    }

    /// Titles never contain control characters (`nameProblem`), so U+001F separates
    /// them unambiguously; no title is empty, so "" is the empty list.
    package static let titleSeparator: UInt8 = 0x1F

    package static func pack(_ titles: [String]) -> String {
        titles.joined(separator: "\u{1F}")
    }

    package static func unpackTitles(_ text: String) -> [String] {
        if text.isEmpty { return [] }
        return text.utf8.split(separator: titleSeparator, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
    }

    package static func pack(_ indices: [Int]) -> String {
        indices.map { String($0) }.joined(separator: ",")
    }

    /// Ids joined by ','; a missing one is an empty part.
    package static func pack(_ ids: [TabID?]) -> String {
        ids.map { $0?.uuidString ?? "" }.joined(separator: ",")
    }

    /// Ids joined by ','; an empty or unreadable part is `nil`.
    package static func unpackTabIDs(_ text: String) -> [TabID?] {
        text.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            .map { TabID(String(decoding: $0, as: UTF8.self)) }
    }

    /// `nil` when a part is not a number.
    package static func unpackIndices(_ text: String) -> [Int]? {
        if text.isEmpty { return [] }
        var indices: [Int] = []
        for part in text.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            guard let index = Int(String(decoding: part, as: UTF8.self)) else { return nil }
            indices.append(index)
        }
        return indices
    }
}

